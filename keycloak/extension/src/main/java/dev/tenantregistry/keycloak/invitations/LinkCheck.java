package dev.tenantregistry.keycloak.invitations;

/**
 * What the registry said of an invitation's link, as the page the person sees depends on it: the link opens; the
 * registry refused it (superseded, revoked, expired, used, not this user's); or it could not be asked, which is no
 * verdict on the link and is told as such, not as an expired action.
 */
enum LinkCheck {
    OPENS,
    REFUSED,
    UNCHECKED;

    /**
     * The registry's answer read: 200 says open or not; any other 4xx is a refusal of this link, except the ones that
     * say the extension itself was refused or throttled (401, 403, 408, 429), which, like a 5xx, check nothing.
     */
    static LinkCheck of(int status, boolean open) {
        if (status == 200) {
            return open ? OPENS : REFUSED;
        }
        if (status >= 400 && status < 500 && status != 401 && status != 403 && status != 408 && status != 429) {
            return REFUSED;
        }
        return UNCHECKED;
    }
}
