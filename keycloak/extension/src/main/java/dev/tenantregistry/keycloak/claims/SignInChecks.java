package dev.tenantregistry.keycloak.claims;

import java.net.URI;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jboss.logging.Logger;
import org.keycloak.models.ClientModel;
import org.keycloak.models.ClientSessionContext;
import org.keycloak.models.IdentityProviderModel;
import org.keycloak.models.KeycloakSession;
import org.keycloak.models.OrganizationModel;
import org.keycloak.models.ProtocolMapperModel;
import org.keycloak.models.RealmModel;
import org.keycloak.models.UserModel;
import org.keycloak.models.UserSessionModel;
import org.keycloak.organization.OrganizationProvider;
import org.keycloak.protocol.oidc.OIDCLoginProtocol;
import org.keycloak.sessions.AuthenticationSessionModel;

/**
 * The registry's one call per token issuance, for the claims and the decision together (SPEC-EXTENSIONS §1, §15). The
 * claims mapper makes it while the token is built and leaves the decision in the request's session; the token-request
 * executor reads it there, so policy on costs no second call. A client without the mapper is asked for with the realm's
 * first mapper's settings. With the registry unreachable, both come from the attributes it last pushed (PushedVerdict).
 */
public final class SignInChecks {

    private static final Logger LOG = Logger.getLogger(SignInChecks.class);

    /** One token cache for every mapper and realm (keyed by both). */
    private static final RegistryClaims REGISTRY = new RegistryClaims(new ServiceTokens());

    private SignInChecks() {
    }

    /** The decision on the token being issued in this request, asked for now when the mapper has not. */
    public static Verdict atToken(KeycloakSession session, UserSessionModel userSession, ClientSessionContext context) {
        ClientModel client = context.getClientSession().getClient();
        Verdict memo = session.getAttribute(memoKey(userSession, client), Verdict.class);
        if (memo != null) {
            return memo;
        }
        Optional<ProtocolMapperModel> mapper = mapperFor(userSession.getRealm(), client);
        return mapper.isEmpty() ? Verdict.ALLOW : forToken(mapper.get(), session, userSession, context).verdict();
    }

    /** Claims and decision for a token the mapper `model` is building; the decision stays in the session for atToken. */
    static RegistryAnswer forToken(ProtocolMapperModel model, KeycloakSession session, UserSessionModel userSession,
                                   ClientSessionContext context) {
        ClientModel client = context.getClientSession().getClient();
        // A service account's token is no person's sign-in: claims only, no decision asked for (none audited).
        SignInFacts facts = userSession.getUser().getServiceAccountClientLink() != null ? null
                : SignInFacts.of(client.getClientId(), userSession.getRealm(), userSession.getNotes(), nowSeconds());
        TokenTenant tenant = null;
        RegistryAnswer answer;
        try {
            tenant = TokenTenant.of(session, userSession.getUser(), context);
            answer = ask(model, session, userSession.getRealm(), userSession.getUser(), tenant, facts);
        } catch (RuntimeException e) {
            // TokenTenant itself failed: nothing names the tenant, so nothing pushed can be chosen either.
            LOG.warnf("%s: no tenant for a token of user %s: %s", TenantRegistryClaimsMapper.PROVIDER_ID, userSession.getUser().getId(), e);
            answer = new RegistryAnswer(TenantClaims.NONE, Verdict.ALLOW);
        }
        session.setAttribute(memoKey(userSession, client), answer.verdict());
        return answer;
    }

    /** The decision on a sign-in before any token (the required action), from the notes it collected so far. */
    public static Verdict atSignIn(KeycloakSession session, AuthenticationSessionModel authSession, UserModel user) {
        RealmModel realm = authSession.getRealm();
        ClientModel client = authSession.getClient();
        Optional<ProtocolMapperModel> mapper = mapperFor(realm, client);
        if (mapper.isEmpty()) {
            return Verdict.ALLOW;
        }
        Map<String, String> notes = new HashMap<>();
        // A sign-in by the browser's open session completed its methods earlier: that session's notes hold them.
        UserSessionModel open = session.sessions().getUserSession(realm, authSession.getParentSession().getId());
        if (open != null && open.getUser().getId().equals(user.getId())) {
            notes.putAll(open.getNotes());
        }
        notes.putAll(authSession.getUserSessionNotes());
        SignInFacts facts = SignInFacts.of(client.getClientId(), realm, notes, nowSeconds());
        try {
            TokenTenant tenant = TokenTenant.ofSignIn(session, user, authSession.getClientNote(OIDCLoginProtocol.SCOPE_PARAM));
            return ask(mapper.get(), session, realm, user, tenant, facts).verdict();
        } catch (RuntimeException e) {
            LOG.warnf("%s: no tenant for the sign-in of user %s: %s", TenantRegistryClaimsMapper.PROVIDER_ID, user.getId(), e);
            return Verdict.ALLOW;
        }
    }

    /**
     * The registry's answer, or the pushed attributes' when it cannot give one in time; never throws for the registry.
     * Without facts (a service account's token) the answer allows: there is no sign-in to judge.
     */
    private static RegistryAnswer ask(ProtocolMapperModel model, KeycloakSession session, RealmModel realm, UserModel user,
                                      TokenTenant tenant, SignInFacts facts) {
        try {
            MapperSettings settings = MapperSettings.from(model.getConfig());
            String secret = null;
            URI tokenEndpoint = null;
            if (settings.clientId() != null) {
                secret = settings.clientSecret() != null ? settings.clientSecret() : TenantRegistryClaimsMapper.secretOf(realm, settings.clientId());
                tokenEndpoint = settings.tokenEndpoint() != null ? settings.tokenEndpoint() : TenantRegistryClaimsMapper.tokenEndpointOf(session, realm);
            }
            RegistryAnswer answer = REGISTRY.resolve(settings, secret, tokenEndpoint, tenant, user, facts);
            // An organization Keycloak no longer grants counts only through a member record (a deactivated member's).
            TenantClaims claims = tenant.vouched() || answer.claims().ofMember() ? answer.claims() : TenantClaims.NONE;
            if (facts == null) {
                return new RegistryAnswer(claims, Verdict.ALLOW);
            }
            Verdict verdict = answer.verdict() != null ? answer.verdict() : PushedVerdict.stranger(membershipsOf(user), facts);
            return new RegistryAnswer(claims, verdict);
        } catch (RegistryClaims.Unavailable | RuntimeException e) {
            // Whatever went wrong (bad settings included), the pushed attributes decide.
            String cause = e instanceof RegistryClaims.Unavailable || e instanceof IllegalArgumentException
                    ? e.getMessage() : e.getClass().getName() + ": " + e.getMessage();
            LOG.warnf("%s mapper '%s' in realm %s: no answer from the tenant registry for user %s: %s; the pushed attributes "
                    + "decide (claims_source \"attributes\")", TenantRegistryClaimsMapper.PROVIDER_ID, model.getName(), realm.getName(), user.getId(), cause);
            return fallback(session, user, tenant, facts);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return fallback(session, user, tenant, facts);
        }
    }

    private static RegistryAnswer fallback(KeycloakSession session, UserModel user, TokenTenant tenant, SignInFacts facts) {
        TenantClaims claims = PushedClaims.of(tenant, user);
        if (facts == null) {
            return new RegistryAnswer(claims, Verdict.ALLOW);
        }
        if (claims == TenantClaims.NONE && tenant.basis() == TokenTenant.Basis.ASKED) {
            // Asked for an organization the last push says the user is no member of, as the registry would say.
            return new RegistryAnswer(claims, Verdict.deny("not_a_member", TenantClaims.FROM_ATTRIBUTES));
        }
        boolean throughTenantSso = throughSsoOf(session, facts.identityProvider(), claims.tenantSlug());
        return new RegistryAnswer(claims, PushedVerdict.of(claims, membershipsOf(user), facts, throughTenantSso, nowSeconds()));
    }

    /** Whether the identity provider is linked to the tenant's organization (the registry links each SSO connection's). */
    private static boolean throughSsoOf(KeycloakSession session, String alias, String tenantSlug) {
        if (alias == null || tenantSlug == null) {
            return false;
        }
        IdentityProviderModel provider = session.identityProviders().getByAlias(alias);
        if (provider == null || provider.getOrganizationId() == null) {
            return false;
        }
        OrganizationProvider organizations = session.getProvider(OrganizationProvider.class);
        OrganizationModel organization = organizations == null ? null : organizations.getById(provider.getOrganizationId());
        return organization != null && tenantSlug.equals(organization.getAlias());
    }

    private static List<String> membershipsOf(UserModel user) {
        return user.getAttributeStream(TenantClaims.TENANT_MEMBERSHIPS).toList();
    }

    /** The client's own tenant-registry-claims mapper, else the realm's first client's (by client id) that has one. */
    private static Optional<ProtocolMapperModel> mapperFor(RealmModel realm, ClientModel client) {
        return Optional.ofNullable(client).flatMap(SignInChecks::claimsMapperOf)
                .or(() -> realm.getClientsStream().sorted(Comparator.comparing(ClientModel::getClientId)).flatMap(c -> claimsMapperOf(c).stream()).findFirst());
    }

    private static Optional<ProtocolMapperModel> claimsMapperOf(ClientModel client) {
        return client.getProtocolMappersStream().filter(m -> TenantRegistryClaimsMapper.PROVIDER_ID.equals(m.getProtocolMapper())).findFirst();
    }

    private static String memoKey(UserSessionModel userSession, ClientModel client) {
        return "tenant-registry-verdict:" + userSession.getId() + ":" + client.getId();
    }

    private static long nowSeconds() {
        return System.currentTimeMillis() / 1000;
    }
}
