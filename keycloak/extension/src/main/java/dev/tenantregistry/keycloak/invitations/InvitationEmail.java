package dev.tenantregistry.keycloak.invitations;

import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.keycloak.email.EmailException;
import org.keycloak.email.EmailTemplateProvider;
import org.keycloak.models.Constants;
import org.keycloak.models.KeycloakSession;
import org.keycloak.models.OrganizationModel;
import org.keycloak.models.RealmModel;
import org.keycloak.models.UserModel;
import org.keycloak.organization.OrganizationProvider;
import org.keycloak.theme.Theme;
import org.keycloak.theme.beans.LinkExpirationFormatterMethod;

/**
 * The e-mail an invitation's link goes out in, saying what the link will ask (InvitationLinkAsks): an account made for
 * the invitation gets Keycloak's own execute-actions e-mail (verify the address, set a password); any other account is
 * asked to sign in to accept, in this extension's template (theme-resources), with no word of a password or of its
 * address, as its link changes neither (SPEC-EXTENSIONS §13).
 */
public final class InvitationEmail {

    /** theme-resources/templates/{html,text}/ of this jar, found whatever the realm's e-mail theme. */
    static final String SIGN_IN_TEMPLATE = "tenant-registry-invitation-sign-in.ftl";

    /** Keycloak's own subject for joining an organization, in every language its themes have. */
    static final String SIGN_IN_SUBJECT = "orgInviteSubject";

    private InvitationEmail() {
    }

    public static void send(KeycloakSession session, RealmModel realm, UserModel user, String link, int lifespanSeconds,
                            List<String> actions, String organizationAlias) throws EmailException {
        long minutes = TimeUnit.SECONDS.toMinutes(lifespanSeconds);
        EmailTemplateProvider emails = session.getProvider(EmailTemplateProvider.class)
                .setAttribute(Constants.IGNORE_ACCEPT_LANGUAGE_HEADER, true)
                .setRealm(realm)
                .setUser(user);
        if (!InvitationLinkAsks.signsIn(session, realm, user)) {
            emails.setAttribute(Constants.TEMPLATE_ATTR_REQUIRED_ACTIONS, actions).sendExecuteActions(link, minutes);
            return;
        }
        String organization = organizationName(session, realm, organizationAlias);
        Map<String, Object> attributes = new HashMap<>();
        attributes.put("link", link);
        attributes.put("linkExpiration", minutes);
        attributes.put("organizationName", organization);
        try {
            Locale locale = session.getContext().resolveLocale(user);
            attributes.put("linkExpirationFormatter",
                    new LinkExpirationFormatterMethod(session.theme().getTheme(Theme.Type.EMAIL).getMessages(locale), locale));
        } catch (IOException e) {
            throw new EmailException("Failed to template email", e);
        }
        emails.send(SIGN_IN_SUBJECT, List.of(organization), SIGN_IN_TEMPLATE, attributes);
    }

    /** The name of the organization the invitation joins; its alias, or the realm's name, when Keycloak has none by it. */
    private static String organizationName(KeycloakSession session, RealmModel realm, String alias) {
        OrganizationProvider organizations = session.getProvider(OrganizationProvider.class);
        OrganizationModel organization = alias == null || alias.isBlank() || organizations == null ? null : organizations.getByAlias(alias);
        if (organization != null && organization.getName() != null) {
            return organization.getName();
        }
        if (alias != null && !alias.isBlank()) {
            return alias;
        }
        return realm.getDisplayName() != null ? realm.getDisplayName() : realm.getName();
    }
}
