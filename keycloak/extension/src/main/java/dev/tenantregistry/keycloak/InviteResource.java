package dev.tenantregistry.keycloak;

import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.Response.Status;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.jboss.logging.Logger;
import dev.tenantregistry.keycloak.invitations.InvitationActionToken;
import dev.tenantregistry.keycloak.invitations.InvitationEmail;
import org.keycloak.authentication.actiontoken.DefaultActionToken;
import org.keycloak.authentication.actiontoken.execactions.ExecuteActionsActionToken;
import org.keycloak.authentication.requiredactions.util.RequiredActionsValidator;
import org.keycloak.common.util.Time;
import org.keycloak.email.EmailException;
import org.keycloak.email.EmailTemplateProvider;
import org.keycloak.events.admin.OperationType;
import org.keycloak.events.admin.ResourceType;
import org.keycloak.models.Constants;
import org.keycloak.models.KeycloakSession;
import org.keycloak.models.RealmModel;
import org.keycloak.models.UserModel;
import org.keycloak.services.ErrorResponse;
import org.keycloak.services.resources.LoginActionsService;
import org.keycloak.services.resources.admin.AdminAuth;
import org.keycloak.services.resources.admin.AdminEventBuilder;
import org.keycloak.services.resources.admin.UserResource;
import org.keycloak.services.resources.admin.fgap.AdminPermissions;

/**
 * POST /realms/{realm}/tenant-registry/invite: Keycloak's own execute-actions e-mail, with the action link returned.
 *
 * Stock Keycloak (PUT /admin/realms/{realm}/users/{id}/execute-actions-email) mails the link and answers 204, so an
 * admin caller never sees it. This endpoint does the same steps as that method, with the same checks and the same
 * token type (ExecuteActionsActionToken, handled by Keycloak's stock action-token endpoint), and answers
 * 200 {"link": "..."} so the tenant registry can return the link as invite_url.
 *
 * With `invitation_id` and `nonce` the link is an InvitationActionToken (checked with the registry each time it is
 * opened), mailed as InvitationEmail says (an account that exists already is asked to sign in, naming the
 * `organization`); with `send_email: false` it is answered without an e-mail.
 *
 * Answers: 200 link; 400 bad input (same checks as stock); 401 no or invalid token; 403 the caller lacks the realm-management
 * role manage-users; 404 unknown user; 500 the e-mail could not be sent (the caller retries, as with stock).
 */
public class InviteResource {

    private static final Logger LOG = Logger.getLogger(InviteResource.class);

    private final KeycloakSession session;

    public InviteResource(KeycloakSession session) {
        this.session = session;
    }

    @POST
    @Path("invite")
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    public Response invite(InviteRequest request) {
        RealmModel realm = session.getContext().getRealm();
        AdminAuth auth = RealmAdminAuthentication.authenticate(session, realm);
        // Authorisation first, so a caller without the role learns nothing, not even about its input. The role
        // (manage-users) and the evaluator are the ones the stock endpoint checks.
        AdminPermissions.evaluator(session, realm, auth).users().requireManage();

        if (request == null || request.userId == null || request.userId.isBlank()) {
            throw ErrorResponse.error("user_id is required", Status.BAD_REQUEST);
        }
        if (request.lifespan != null && request.lifespan <= 0) {
            throw ErrorResponse.error("lifespan must be a positive number of seconds", Status.BAD_REQUEST);
        }
        List<String> actions = request.actions;
        if (actions == null || actions.isEmpty() || !RequiredActionsValidator.validRequiredActions(session, actions)) {
            throw ErrorResponse.error("Provided invalid required actions", Status.BAD_REQUEST);
        }

        UserModel user = session.users().getUserById(realm, request.userId);
        if (user == null) {
            throw ErrorResponse.error("User not found", Status.NOT_FOUND);
        }

        // Stock's own validation: e-mail present, user enabled, client exists and is enabled, redirect allowed for it.
        UserResource.SendEmailParams params = UserResource.verifySendEmailParams(
                session, realm, user, request.redirectUri, request.clientId, request.lifespan);

        boolean invitation = request.invitationId != null && !request.invitationId.isBlank();
        if (invitation && (request.nonce == null || request.nonce.isBlank())) {
            throw ErrorResponse.error("nonce is required with invitation_id", Status.BAD_REQUEST);
        }
        int expiration = Time.currentTime() + params.getLifespan();
        // An invitation's link is its own token type, which the registry is asked about whenever it is opened.
        DefaultActionToken token = invitation
                ? new InvitationActionToken(user.getId(), user.getEmail(), expiration, actions, params.getRedirectUri(), params.getClientId(),
                        request.invitationId, request.nonce)
                : new ExecuteActionsActionToken(user.getId(), user.getEmail(), expiration, actions, params.getRedirectUri(), params.getClientId());
        String link = LoginActionsService.actionTokenProcessor(session.getContext().getUri())
                .queryParam("key", token.serialize(session, realm, session.getContext().getUri()))
                .build(realm.getName())
                .toString();
        if (Boolean.FALSE.equals(request.sendEmail)) {
            return Response.ok(Map.of("link", link)).build();
        }

        try {
            if (invitation) {
                InvitationEmail.send(session, realm, user, link, params.getLifespan(), actions, request.organization);
            } else {
                session.getProvider(EmailTemplateProvider.class)
                        .setAttribute(Constants.TEMPLATE_ATTR_REQUIRED_ACTIONS, actions)
                        .setAttribute(Constants.IGNORE_ACCEPT_LANGUAGE_HEADER, true)
                        .setRealm(realm)
                        .setUser(user)
                        .sendExecuteActions(link, TimeUnit.SECONDS.toMinutes(params.getLifespan()));
            }
        } catch (EmailException e) {
            // Without the e-mail there is no invitation: the caller must not get a link it would present as sent.
            LOG.warnf(e, "tenant-registry invite: the execute-actions e-mail to user %s could not be sent", user.getId());
            throw ErrorResponse.error("Failed to send execute actions email", Status.INTERNAL_SERVER_ERROR);
        }

        new AdminEventBuilder(realm, auth, session, session.getContext().getConnection())
                .resource(ResourceType.USER)
                .operation(OperationType.ACTION)
                .resourcePath("users", user.getId(), "execute-actions-email")
                .success();

        return Response.ok(Map.of("link", link)).build();
    }
}
