// The demo app's browser side: authorization code flow with PKCE (RFC 7636, S256) against the realm, tokens kept in
// sessionStorage for this tab only, the code exchanged and the token refreshed through the page's own /token (the
// server forwards it to Keycloak, so the page works on any loopback port without a CORS entry per port).
const config = await (await fetch('config.json')).json();
const redirectUri = `${location.origin}${location.pathname}`;
const $ = (id) => document.getElementById(id);

const base64url = (bytes) => btoa(String.fromCharCode(...new Uint8Array(bytes))).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
const randomText = () => base64url(crypto.getRandomValues(new Uint8Array(32)));
const payloadOf = (jwt) => JSON.parse(new TextDecoder().decode(Uint8Array.from(atob(jwt.split('.')[1].replace(/-/g, '+').replace(/_/g, '/')), (c) => c.charCodeAt(0))));

async function signIn() {
  const verifier = randomText();
  const state = randomText();
  const challenge = base64url(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier)));
  sessionStorage.setItem('pkce', JSON.stringify({ verifier, state }));
  const organization = $('organization').value.trim();
  const url = new URL(config.authorization_endpoint);
  url.search = new URLSearchParams({
    response_type: 'code',
    client_id: config.client_id,
    redirect_uri: redirectUri,
    scope: organization ? `openid organization:${organization}` : 'openid',
    state,
    code_challenge: challenge,
    code_challenge_method: 'S256',
  }).toString();
  location.assign(url);
}

async function tokenRequest(form) {
  const response = await fetch('token', { method: 'POST', body: new URLSearchParams({ client_id: config.client_id, ...form }) });
  const body = await response.json();
  if (!response.ok) throw new Error(`${body.error ?? response.status}: ${body.error_description ?? ''}`);
  sessionStorage.setItem('tokens', JSON.stringify(body));
  return body;
}

async function completeSignIn(params) {
  const pending = JSON.parse(sessionStorage.getItem('pkce') ?? 'null');
  sessionStorage.removeItem('pkce');
  history.replaceState(null, '', location.pathname);
  if (params.get('error')) throw new Error(`${params.get('error')}: ${params.get('error_description') ?? ''}`);
  if (!pending || pending.state !== params.get('state')) throw new Error('the sign-in answer does not match a sign-in of this tab (state)');
  return tokenRequest({ grant_type: 'authorization_code', code: params.get('code'), redirect_uri: redirectUri, code_verifier: pending.verifier });
}

function show(tokens, what) {
  const signedIn = Boolean(tokens);
  $('refresh').disabled = !signedIn;
  $('sign-out').disabled = !signedIn;
  $('summary').hidden = !signedIn;
  if (!signedIn) {
    $('access-claims').textContent = '';
    $('id-claims').textContent = '';
    return;
  }
  const access = payloadOf(tokens.access_token);
  $('access-claims').textContent = JSON.stringify(access, null, 2);
  $('id-claims').textContent = tokens.id_token ? JSON.stringify(payloadOf(tokens.id_token), null, 2) : '(none)';
  $('summary-tenant').textContent = `${access.tenant_slug ?? '-'} (${access.tenant_id ?? '-'})`;
  $('summary-plan').textContent = access.plan ?? '-';
  $('summary-status').textContent = access.tenant_status ?? '-';
  $('summary-products').textContent = (access.products ?? []).join(', ') || '-';
  $('summary-membership').textContent = access.membership_status ?? '-';
  $('summary-roles').textContent = (access.org_roles ?? []).join(', ') || '-';
  $('summary-permissions').textContent = (access.permissions ?? []).join(', ') || '-';
  $('summary-source').textContent = access.claims_source ?? '-';
  $('status').textContent = `Signed in as ${access.preferred_username ?? access.sub}: ${what} at ${new Date(access.iat * 1000).toLocaleTimeString()}.`;
}

function failed(err) {
  $('status').textContent = `Error: ${err.message}`;
}

$('sign-in').addEventListener('click', () => signIn().catch(failed));
$('refresh').addEventListener('click', () => {
  const tokens = JSON.parse(sessionStorage.getItem('tokens'));
  tokenRequest({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token }).then((t) => show(t, 'token refreshed'), failed);
});
$('sign-out').addEventListener('click', () => {
  const tokens = JSON.parse(sessionStorage.getItem('tokens'));
  sessionStorage.removeItem('tokens');
  const url = new URL(config.end_session_endpoint);
  url.search = new URLSearchParams({ client_id: config.client_id, post_logout_redirect_uri: redirectUri, id_token_hint: tokens.id_token }).toString();
  location.assign(url);
});

const params = new URLSearchParams(location.search);
if (params.has('code') || params.has('error')) {
  completeSignIn(params).then((t) => show(t, 'signed in'), failed);
} else {
  const stored = JSON.parse(sessionStorage.getItem('tokens') ?? 'null');
  show(stored, 'token issued');
}
