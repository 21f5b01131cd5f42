package dev.tenantregistry.keycloak.sso.saml;

import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.FormParam;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.time.Instant;
import java.util.Base64;
import org.jboss.logging.Logger;
import org.keycloak.broker.provider.UserAuthenticationIdentityProvider;
import org.keycloak.broker.saml.SAMLEndpoint;
import org.keycloak.broker.saml.SAMLIdentityProvider;
import org.keycloak.broker.saml.SAMLIdentityProviderConfig;
import org.keycloak.events.Details;
import org.keycloak.events.Errors;
import org.keycloak.events.EventBuilder;
import org.keycloak.events.EventType;
import org.keycloak.models.KeycloakSession;
import org.keycloak.saml.common.constants.GeneralConstants;
import org.keycloak.saml.validators.DestinationValidator;
import org.keycloak.services.ErrorPage;
import org.keycloak.services.Urls;
import org.keycloak.services.messages.Messages;

/**
 * Keycloak's SAML broker endpoint with SamlResponseCheck first: a login response it refuses never reaches the broker,
 * and is an IDENTITY_PROVIDER_RESPONSE_ERROR event (error invalid_saml_response, the check's reason as `reason`).
 * Responses come by POST only (the connection asks for that binding), and the IdP-initiated endpoints
 * (clients/{client_id}) answer every response with a refusal: a tenant's sign-in starts at Keycloak, never at the IdP.
 */
public class CheckedSamlEndpoint extends SAMLEndpoint {

    private static final Logger LOG = Logger.getLogger(CheckedSamlEndpoint.class);

    public CheckedSamlEndpoint(KeycloakSession session, SAMLIdentityProvider provider, SAMLIdentityProviderConfig config,
            UserAuthenticationIdentityProvider.AuthenticationCallback callback, DestinationValidator destinationValidator) {
        super(session, provider, config, callback, destinationValidator);
    }

    @Override
    @POST
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    public Response postBinding(@FormParam(GeneralConstants.SAML_REQUEST_KEY) String samlRequest,
            @FormParam(GeneralConstants.SAML_RESPONSE_KEY) String samlResponse,
            @FormParam(GeneralConstants.SAML_ARTIFACT_KEY) String samlArt,
            @FormParam(GeneralConstants.RELAY_STATE) String relayState) {
        if (samlArt != null) return refuse("artifact_binding");
        if (samlResponse != null) {
            String reason = refusalOf(samlResponse);
            if (reason != null) return refuse(reason);
        }
        return super.postBinding(samlRequest, samlResponse, samlArt, relayState);
    }

    @Override
    @GET
    public Response redirectBinding(@QueryParam(GeneralConstants.SAML_REQUEST_KEY) String samlRequest,
            @QueryParam(GeneralConstants.SAML_RESPONSE_KEY) String samlResponse,
            @QueryParam(GeneralConstants.SAML_ARTIFACT_KEY) String samlArt,
            @QueryParam(GeneralConstants.RELAY_STATE) String relayState) {
        if (samlResponse != null || samlArt != null) return refuse("redirect_binding");
        return super.redirectBinding(samlRequest, samlResponse, samlArt, relayState);
    }

    @Override
    @Path("clients/{client_id}")
    @POST
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    public Response postBindingIdpInitiated(@FormParam(GeneralConstants.SAML_REQUEST_KEY) String samlRequest,
            @FormParam(GeneralConstants.SAML_RESPONSE_KEY) String samlResponse,
            @FormParam(GeneralConstants.RELAY_STATE) String relayState,
            @PathParam("client_id") String clientId) {
        return refuse("idp_initiated");
    }

    @Override
    @Path("clients/{client_id}")
    @GET
    public Response redirectBindingIdpInitiated(@QueryParam(GeneralConstants.SAML_REQUEST_KEY) String samlRequest,
            @QueryParam(GeneralConstants.SAML_RESPONSE_KEY) String samlResponse,
            @QueryParam(GeneralConstants.RELAY_STATE) String relayState,
            @PathParam("client_id") String clientId) {
        return refuse("idp_initiated");
    }

    private String refusalOf(String samlResponse) {
        byte[] xml;
        try {
            xml = Base64.getMimeDecoder().decode(samlResponse);
        } catch (IllegalArgumentException e) {
            return "undecodable";
        }
        String acsUrl = Urls.identityProviderAuthnResponse(session.getContext().getUri().getBaseUri(), config.getAlias(), realm.getName()).toString();
        return SamlResponseCheck.refusal(xml, new SamlResponseCheck.Expected(acsUrl, Instant.now(), config.getAllowedClockSkew()));
    }

    private Response refuse(String reason) {
        LOG.warnf("tenant-registry: a SAML response through %s is refused (%s)", config.getAlias(), reason);
        new EventBuilder(realm, session, clientConnection)
                .event(EventType.IDENTITY_PROVIDER_RESPONSE)
                .detail(Details.IDENTITY_PROVIDER, config.getAlias())
                .detail(Details.REASON, reason)
                .error(Errors.INVALID_SAML_RESPONSE);
        return ErrorPage.error(session, null, Response.Status.BAD_REQUEST, Messages.INVALID_REQUESTER);
    }
}
