package dev.tenantregistry.keycloak.sso.saml;

import java.io.ByteArrayInputStream;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;
import org.w3c.dom.Attr;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NamedNodeMap;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;
import org.xml.sax.SAXParseException;
import org.xml.sax.helpers.DefaultHandler;

/**
 * What a tenant's SAML connection refuses in a login response before Keycloak's broker reads it: the checks the broker
 * leaves out (SPEC-EXTENSIONS §14; docs/security.md, "SAML responses"). Strict on shape, so that the element whose
 * signature is checked is the element whose content is read: one Response holding one Assertion, each signature a
 * child of the element it signs and naming it, nothing signed elsewhere (the XML signature-wrapping variants); no
 * DOCTYPE, comment or processing instruction (entities, and a NameID cut by a comment); only SHA-2 algorithms; and a
 * bearer confirmation for this endpoint that has not expired (the broker checks Destination, Audience, the Conditions'
 * window and InResponseTo itself, but neither the Recipient nor the confirmation's own NotOnOrAfter).
 */
public final class SamlResponseCheck {

    static final String PROTOCOL = "urn:oasis:names:tc:SAML:2.0:protocol";
    static final String ASSERTION = "urn:oasis:names:tc:SAML:2.0:assertion";
    static final String DSIG = "http://www.w3.org/2000/09/xmldsig#";
    static final String BEARER = "urn:oasis:names:tc:SAML:2.0:cm:bearer";

    static final Set<String> SIGNATURE_ALGORITHMS = Set.of(
            "http://www.w3.org/2001/04/xmldsig-more#rsa-sha256",
            "http://www.w3.org/2001/04/xmldsig-more#rsa-sha384",
            "http://www.w3.org/2001/04/xmldsig-more#rsa-sha512",
            "http://www.w3.org/2001/04/xmldsig-more#ecdsa-sha256",
            "http://www.w3.org/2001/04/xmldsig-more#ecdsa-sha384",
            "http://www.w3.org/2001/04/xmldsig-more#ecdsa-sha512",
            "http://www.w3.org/2007/05/xmldsig-more#sha256-rsa-MGF1");
    static final Set<String> DIGEST_ALGORITHMS = Set.of(
            "http://www.w3.org/2001/04/xmlenc#sha256",
            "http://www.w3.org/2001/04/xmldsig-more#sha384",
            "http://www.w3.org/2001/04/xmlenc#sha512");
    /** The transforms a SAML signature uses (SAML core §5.4.4); XPath and XSLT ones select what is signed otherwise. */
    static final Set<String> TRANSFORMS = Set.of(
            "http://www.w3.org/2000/09/xmldsig#enveloped-signature",
            "http://www.w3.org/2001/10/xml-exc-c14n#",
            "http://www.w3.org/2001/10/xml-exc-c14n#WithComments",
            "http://www.w3.org/TR/2001/REC-xml-c14n-20010315",
            "http://www.w3.org/TR/2001/REC-xml-c14n-20010315#WithComments",
            "http://www.w3.org/2006/12/xml-c14n11");

    /** Where the response must say it is for, and the time it is judged at. */
    public record Expected(String acsUrl, Instant now, long skewSeconds) {
    }

    private SamlResponseCheck() {
    }

    /** The reason the response is refused, or null when it passes these checks (the broker's own come next). */
    public static String refusal(byte[] xml, Expected expected) {
        Document document;
        try {
            document = parse(xml);
        } catch (DoctypeFound e) {
            return "doctype";
        } catch (Exception e) {
            return "unparsable";
        }
        if (hasNodeOfType(document, Node.COMMENT_NODE) || hasNodeOfType(document, Node.PROCESSING_INSTRUCTION_NODE)) return "comment_or_instruction";
        Element response = document.getDocumentElement();
        if (!is(response, PROTOCOL, "Response")) return "not_a_response";
        if (!uniqueIds(document)) return "duplicate_id";
        List<Element> assertions = all(document, ASSERTION, "Assertion");
        if (assertions.size() != 1 || !all(document, ASSERTION, "EncryptedAssertion").isEmpty()) return "assertion_count";
        Element assertion = assertions.get(0);
        if (assertion.getParentNode() != response) return "assertion_placement";
        if (!all(document, PROTOCOL, "Response").equals(List.of(response))) return "response_count";
        if (!all(document, DSIG, "Object").isEmpty()) return "signature_object";
        boolean assertionSigned = false;
        for (Element signature : all(document, DSIG, "Signature")) {
            Node signed = signature.getParentNode();
            if (signed != response && signed != assertion) return "signature_placement";
            String problem = signatureProblem(signature, (Element) signed);
            if (problem != null) return problem;
            assertionSigned |= signed == assertion;
        }
        if (!assertionSigned) return "assertion_unsigned";
        return confirmationProblem(assertion, expected);
    }

    /** A signature that signs anything but its parent, or with anything but the SHA-2 algorithms above. */
    private static String signatureProblem(Element signature, Element signed) {
        List<Element> references = all(signature, DSIG, "Reference");
        String id = signed.getAttribute("ID");
        if (references.size() != 1 || id.isEmpty() || !("#" + id).equals(references.get(0).getAttribute("URI"))) return "signature_reference";
        List<Element> methods = all(signature, DSIG, "SignatureMethod");
        if (methods.size() != 1 || !SIGNATURE_ALGORITHMS.contains(methods.get(0).getAttribute("Algorithm"))) return "weak_algorithm";
        List<Element> digests = all(signature, DSIG, "DigestMethod");
        if (digests.size() != 1 || !DIGEST_ALGORITHMS.contains(digests.get(0).getAttribute("Algorithm"))) return "weak_algorithm";
        for (Element transform : all(signature, DSIG, "Transform")) {
            if (!TRANSFORMS.contains(transform.getAttribute("Algorithm"))) return "signature_transform";
        }
        return null;
    }

    /** A bearer confirmation for this endpoint, still valid (SAML profiles §4.1.4.2): else the assertion is not for us now. */
    private static String confirmationProblem(Element assertion, Expected expected) {
        String problem = "subject_confirmation";
        for (Element confirmation : all(assertion, ASSERTION, "SubjectConfirmation")) {
            if (!BEARER.equals(confirmation.getAttribute("Method"))) continue;
            for (Element data : all(confirmation, ASSERTION, "SubjectConfirmationData")) {
                if (!expected.acsUrl().equals(data.getAttribute("Recipient"))) {
                    problem = "recipient";
                    continue;
                }
                Instant notOnOrAfter = instant(data.getAttribute("NotOnOrAfter"));
                if (notOnOrAfter == null || !expected.now().minusSeconds(expected.skewSeconds()).isBefore(notOnOrAfter)) {
                    problem = "subject_confirmation_expired";
                    continue;
                }
                return null;
            }
        }
        return problem;
    }

    private static Instant instant(String value) {
        if (value == null || value.isEmpty()) return null;
        try {
            return OffsetDateTime.parse(value).toInstant();
        } catch (DateTimeParseException e) {
            return null;
        }
    }

    /** IDs the signatures could point at, each once: a second element with the same ID is a wrapping attempt. */
    private static boolean uniqueIds(Document document) {
        Set<String> seen = new HashSet<>();
        NodeList elements = document.getElementsByTagNameNS("*", "*");
        for (int i = 0; i < elements.getLength(); i++) {
            NamedNodeMap attributes = elements.item(i).getAttributes();
            for (int j = 0; j < attributes.getLength(); j++) {
                Attr attribute = (Attr) attributes.item(j);
                String name = attribute.getLocalName() != null ? attribute.getLocalName() : attribute.getName();
                if (("ID".equals(name) || "Id".equals(name) || "id".equals(name)) && !seen.add(attribute.getValue())) return false;
            }
        }
        return true;
    }

    private static boolean hasNodeOfType(Node node, short type) {
        for (Node child = node.getFirstChild(); child != null; child = child.getNextSibling()) {
            if (child.getNodeType() == type || hasNodeOfType(child, type)) return true;
        }
        return false;
    }

    private static boolean is(Element element, String namespace, String localName) {
        return element != null && namespace.equals(element.getNamespaceURI()) && localName.equals(element.getLocalName());
    }

    private static List<Element> all(Node root, String namespace, String localName) {
        NodeList nodes = root instanceof Document document ? document.getElementsByTagNameNS(namespace, localName) : ((Element) root).getElementsByTagNameNS(namespace, localName);
        Element[] elements = new Element[nodes.getLength()];
        for (int i = 0; i < elements.length; i++) elements[i] = (Element) nodes.item(i);
        return List.of(elements);
    }

    private static final class DoctypeFound extends Exception {
        DoctypeFound() {
            super("DOCTYPE");
        }
    }

    /** A DOM of the bytes, with comments kept (to be refused) and a DOCTYPE refused before anything in it is read. */
    private static Document parse(byte[] xml) throws Exception {
        DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
        factory.setNamespaceAware(true);
        factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
        factory.setFeature("http://xml.org/sax/features/external-general-entities", false);
        factory.setFeature("http://xml.org/sax/features/external-parameter-entities", false);
        factory.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
        factory.setAttribute(XMLConstants.ACCESS_EXTERNAL_DTD, "");
        factory.setAttribute(XMLConstants.ACCESS_EXTERNAL_SCHEMA, "");
        factory.setXIncludeAware(false);
        factory.setExpandEntityReferences(false);
        factory.setIgnoringComments(false);
        DocumentBuilder builder = factory.newDocumentBuilder();
        // Fatal errors are thrown, not printed to the server's output.
        builder.setErrorHandler(new DefaultHandler());
        try {
            return builder.parse(new ByteArrayInputStream(xml));
        } catch (SAXParseException e) {
            if (String.valueOf(e.getMessage()).contains("DOCTYPE")) throw new DoctypeFound();
            throw e;
        }
    }
}
