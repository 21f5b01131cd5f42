import { listDomains } from '../../../domain/domains/listDomains.ts';
import { OidcSsoConnectionCreate } from '../../../domain/schemas/ssoConnections.ts';
import { createSsoConnection } from '../../../domain/sso/createSsoConnection.ts';
import { doneUnlessRefused } from '../portalActionErrors.ts';
import { checkboxes, csrfField, fieldErrorsOf, textField } from '../portalForms.ts';
import { html } from '../portalHtml.ts';
import type { PortalIntentPage } from '../portalIntentPage.ts';

/** Single sign-on (SPEC-EXTENSIONS §9): connect the company's OIDC provider for its verified domains. */
export const ssoPage: PortalIntentPage = {
  title: 'Single sign-on',
  notices: { connected: 'The connection was made: people of its domains now sign in through your identity provider.' },

  async view(scope, { errors, values }) {
    const [connections, domains] = await Promise.all([scope.deps.stores.ssoConnections.ofTenant(scope.tenant.id), listDomains(scope.deps, scope.tenant.id)]);
    const verified = domains.filter((d) => d.state === 'verified').map((d) => ({ value: d.domain, label: d.domain }));
    return html`<section aria-labelledby="connect-heading">
  <h2 id="connect-heading">Connect an OpenID Connect provider</h2>
  ${verified.length === 0 ? html`<p>Verify a domain first: a connection signs in the people of your verified domains.</p>` : ''}
  <form method="post" action="/portal/sso/connect" novalidate>
    ${csrfField(scope.csrf)}
    ${textField({ name: 'issuer', label: 'Issuer URL', type: 'url', hint: 'Its discovery document (/.well-known/openid-configuration) must answer', required: true, value: values?.get('issuer') ?? '', errors })}
    ${textField({ name: 'client_id', label: 'Client ID', required: true, autocomplete: 'off', value: values?.get('client_id') ?? '', errors })}
    ${textField({ name: 'client_secret', label: 'Client secret', type: 'password', hint: 'Kept encrypted; never shown again', required: true, autocomplete: 'off', errors })}
    ${checkboxes({ name: 'domains', legend: 'Domains it signs in (verified domains only)', choices: verified, checked: values?.getAll('domains') ?? verified.map((d) => d.value), errors })}
    <button type="submit">Connect</button>
  </form>
</section>
<section aria-labelledby="list-heading">
  <h2 id="list-heading">Connections</h2>
  ${(connections ?? []).length === 0 ? html`<p>No connection yet.</p>` : html`<table>
    <thead><tr><th scope="col">Issuer</th><th scope="col">Client ID</th><th scope="col">Domains</th><th scope="col">State</th></tr></thead>
    <tbody>${(connections ?? []).map((c) => html`<tr><td>${c.issuer}</td><td>${c.protocol === 'oidc' ? c.clientId : 'SAML'}</td><td>${c.domains.join(', ')}</td><td>${c.state}</td></tr>`)}</tbody>
  </table>`}
</section>`;
  },

  actions: {
    async connect(scope, form) {
      const domains = form.getAll('domains');
      const parsed = OidcSsoConnectionCreate.safeParse({ issuer: form.get('issuer') ?? '', client_id: form.get('client_id') ?? '', client_secret: form.get('client_secret') ?? '', domains });
      if (!parsed.success) return { errors: fieldErrorsOf(parsed.error), values: form };
      return doneUnlessRefused('connected', 'issuer', form, () => createSsoConnection(scope.deps, scope.tenant.id, parsed.data, scope.meta));
    },
  },
};
