package dev.tenantregistry.keycloak.invitations;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class LinkCheckTest {

    @Test
    void onlyTheRegistrysYesOpensTheLink() {
        assertEquals(LinkCheck.OPENS, LinkCheck.of(200, true));
        assertEquals(LinkCheck.REFUSED, LinkCheck.of(200, false));
    }

    @Test
    void aRefusalOfTheLinkItselfIsARefusal() {
        assertEquals(LinkCheck.REFUSED, LinkCheck.of(400, false));
        assertEquals(LinkCheck.REFUSED, LinkCheck.of(404, false));
    }

    @Test
    void anAnswerThatChecksNothingIsNoVerdictOnTheLink() {
        for (int status : new int[] {401, 403, 408, 429, 500, 502, 503, 504, 302}) {
            assertEquals(LinkCheck.UNCHECKED, LinkCheck.of(status, false), String.valueOf(status));
        }
    }
}
