package dev.tenantregistry.keycloak.sso.saml;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class SamlResponseCheckTest {

    private static final String ACS = "https://kc.example/realms/r/broker/sso-1/endpoint";
    private static final Instant NOW = Instant.parse("2026-12-02T06:00:00Z");
    private static final SamlResponseCheck.Expected EXPECTED = new SamlResponseCheck.Expected(ACS, NOW, 30);

    private static String signature(String id, String signatureAlgorithm, String digestAlgorithm) {
        return "<ds:Signature xmlns:ds=\"http://www.w3.org/2000/09/xmldsig#\"><ds:SignedInfo>"
                + "<ds:CanonicalizationMethod Algorithm=\"http://www.w3.org/2001/10/xml-exc-c14n#\"/>"
                + "<ds:SignatureMethod Algorithm=\"" + signatureAlgorithm + "\"/>"
                + "<ds:Reference URI=\"#" + id + "\"><ds:Transforms>"
                + "<ds:Transform Algorithm=\"http://www.w3.org/2000/09/xmldsig#enveloped-signature\"/>"
                + "<ds:Transform Algorithm=\"http://www.w3.org/2001/10/xml-exc-c14n#\"/></ds:Transforms>"
                + "<ds:DigestMethod Algorithm=\"" + digestAlgorithm + "\"/><ds:DigestValue>AA==</ds:DigestValue></ds:Reference>"
                + "</ds:SignedInfo><ds:SignatureValue>AA==</ds:SignatureValue></ds:Signature>";
    }

    private static String sha256Signature(String id) {
        return signature(id, "http://www.w3.org/2001/04/xmldsig-more#rsa-sha256", "http://www.w3.org/2001/04/xmlenc#sha256");
    }

    private static String assertion(String id, String signature, String nameId, String recipient, String notOnOrAfter) {
        return "<saml:Assertion xmlns:saml=\"urn:oasis:names:tc:SAML:2.0:assertion\" ID=\"" + id + "\" Version=\"2.0\" IssueInstant=\"2026-12-02T06:00:00Z\">"
                + "<saml:Issuer>https://idp.example</saml:Issuer>" + signature
                + "<saml:Subject><saml:NameID Format=\"urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress\">" + nameId + "</saml:NameID>"
                + "<saml:SubjectConfirmation Method=\"urn:oasis:names:tc:SAML:2.0:cm:bearer\">"
                + "<saml:SubjectConfirmationData InResponseTo=\"req-1\" Recipient=\"" + recipient + "\" NotOnOrAfter=\"" + notOnOrAfter + "\"/>"
                + "</saml:SubjectConfirmation></saml:Subject></saml:Assertion>";
    }

    private static String response(String content) {
        return "<samlp:Response xmlns:samlp=\"urn:oasis:names:tc:SAML:2.0:protocol\" ID=\"resp-1\" Version=\"2.0\" Destination=\"" + ACS + "\" InResponseTo=\"req-1\">"
                + content + "</samlp:Response>";
    }

    private static String signedAssertion() {
        return assertion("a-1", sha256Signature("a-1"), "jane@acme.test", ACS, "2026-12-02T06:05:00Z");
    }

    private static String refusal(String xml) {
        return SamlResponseCheck.refusal(xml.getBytes(StandardCharsets.UTF_8), EXPECTED);
    }

    @Test
    void aResponseWithOneSignedAssertionForThisEndpointPasses() {
        assertNull(refusal(response(signedAssertion())));
        assertNull(refusal(response(sha256Signature("resp-1") + signedAssertion())));
    }

    @Test
    void aDoctypeIsRefusedBeforeItsEntitiesAreRead() {
        assertEquals("doctype", refusal("<!DOCTYPE r [<!ENTITY x SYSTEM \"file:///etc/passwd\">]>" + response(signedAssertion())));
    }

    @Test
    void aCommentAnywhereIsRefused() {
        String cut = assertion("a-1", sha256Signature("a-1"), "jane@acme.test<!---->.evil.test", ACS, "2026-12-02T06:05:00Z");
        assertEquals("comment_or_instruction", refusal(response(cut)));
    }

    @Test
    void aSecondAssertionOrOneOutsideTheResponseIsRefused() {
        String evil = assertion("a-2", "", "ceo@acme.test", ACS, "2026-12-02T06:05:00Z");
        assertEquals("assertion_count", refusal(response(evil + signedAssertion())));
        String wrapped = "<samlp:Extensions>" + signedAssertion() + "</samlp:Extensions>";
        assertEquals("assertion_placement", refusal(response(wrapped)));
    }

    @Test
    void aSignatureThatSignsAnotherElementThanItsParentIsRefused() {
        String elsewhere = assertion("a-1", sha256Signature("resp-1"), "jane@acme.test", ACS, "2026-12-02T06:05:00Z");
        assertEquals("signature_reference", refusal(response(elsewhere)));
    }

    @Test
    void twoElementsWithOneIdAreRefused() {
        String sameId = "<samlp:Response xmlns:samlp=\"urn:oasis:names:tc:SAML:2.0:protocol\" ID=\"a-1\">" + signedAssertion() + "</samlp:Response>";
        assertEquals("duplicate_id", refusal(sameId));
    }

    @Test
    void sha1IsRefused() {
        String sha1 = assertion("a-1", signature("a-1", "http://www.w3.org/2000/09/xmldsig#rsa-sha1", "http://www.w3.org/2000/09/xmldsig#sha1"), "jane@acme.test", ACS, "2026-12-02T06:05:00Z");
        assertEquals("weak_algorithm", refusal(response(sha1)));
    }

    @Test
    void anUnsignedAssertionIsRefusedEvenInASignedResponse() {
        String unsigned = assertion("a-1", "", "jane@acme.test", ACS, "2026-12-02T06:05:00Z");
        assertEquals("assertion_unsigned", refusal(response(sha256Signature("resp-1") + unsigned)));
    }

    @Test
    void aConfirmationForAnotherRecipientOrPastItsTimeIsRefused() {
        assertEquals("recipient", refusal(response(assertion("a-1", sha256Signature("a-1"), "jane@acme.test", "https://elsewhere.example/acs", "2026-12-02T06:05:00Z"))));
        assertEquals("subject_confirmation_expired", refusal(response(assertion("a-1", sha256Signature("a-1"), "jane@acme.test", ACS, "2026-12-02T05:59:00Z"))));
        assertNull(refusal(response(assertion("a-1", sha256Signature("a-1"), "jane@acme.test", ACS, "2026-12-02T05:59:45Z"))), "inside the skew");
    }

    @Test
    void whatIsNotAResponseIsRefused() {
        assertEquals("unparsable", refusal("<samlp:Response"));
        assertEquals("not_a_response", refusal("<x/>"));
    }
}
