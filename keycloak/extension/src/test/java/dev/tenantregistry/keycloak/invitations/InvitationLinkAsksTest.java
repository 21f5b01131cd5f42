package dev.tenantregistry.keycloak.invitations;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class InvitationLinkAsksTest {

    @Test
    void onlyAnAccountWaitingForItsFirstPasswordCompletesActions() {
        assertFalse(InvitationLinkAsks.signsIn(false, List.of("VERIFY_EMAIL", "UPDATE_PASSWORD")));
        assertFalse(InvitationLinkAsks.signsIn(false, List.of("UPDATE_PASSWORD")));
    }

    @Test
    void anAccountWithCredentialsSignsInWhateverActionsItHas() {
        assertTrue(InvitationLinkAsks.signsIn(true, List.of()));
        assertTrue(InvitationLinkAsks.signsIn(true, List.of("VERIFY_EMAIL", "UPDATE_PASSWORD")));
    }

    @Test
    void anAccountMadeWithoutAnInvitationsActionsSignsIn() {
        assertTrue(InvitationLinkAsks.signsIn(false, List.of()));
        assertTrue(InvitationLinkAsks.signsIn(false, List.of("VERIFY_EMAIL")));
    }
}
