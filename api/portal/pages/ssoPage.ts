import { listDomains } from '../../../domain/domains/listDomains.ts';
import { invalidInput } from '../../../domain/errors.ts';
import { OidcSsoConnectionCreate, SsoConnectionPatch } from '../../../domain/schemas/ssoConnections.ts';
import { createSsoConnection } from '../../../domain/sso/createSsoConnection.ts';
import type { SamlMetadataInput } from '../../../domain/sso/readSamlMetadata.ts';
import type { SsoConnectionRecord } from '../../../domain/sso/ssoConnectionRecord.ts';
import { deleteSsoConnection, updateSsoConnection } from '../../../domain/sso/updateSsoConnection.ts';
import { doneUnlessRefused } from '../portalActionErrors.ts';
import { actionButton, checkboxes, csrfField, fieldErrorsOf, fileField, textArea, textField } from '../portalForms.ts';
import { html, type SafeHtml } from '../portalHtml.ts';
import type { PortalIntentPage, PortalScope } from '../portalIntentPage.ts';

const METADATA_FILE_TYPES = '.xml,application/samlmetadata+xml,application/xml,text/xml';

/**
 * The SAML metadata a form gives, one way: an uploaded file, else pasted XML, else a URL (400 naming the field when
 * none is given, or more than one).
 */
function metadataOf(form: URLSearchParams): SamlMetadataInput {
  const file = form.get('metadata_file')?.trim() ?? '';
  const pasted = form.get('metadata_xml')?.trim() ?? '';
  const url = form.get('metadata_url')?.trim() ?? '';
  const given = [file, pasted, url].filter((value) => value !== '').length;
  if (given === 0) throw invalidInput('Paste the metadata, upload its file or give its URL');
  if (given > 1) throw invalidInput('Give the metadata one way only: pasted, uploaded or its URL');
  return file || pasted ? { metadata_xml: file || pasted } : { metadata_url: url };
}

/** The values the customer enters at its identity provider, by protocol. */
function serviceProviderValues(scope: PortalScope, c: SsoConnectionRecord): SafeHtml {
  const sp = scope.deps.ssoServiceProvider(c.idpAlias);
  if (c.protocol === 'oidc') return html`<dl><dt>Redirect URI</dt><dd><code>${sp.redirectUri}</code></dd></dl>`;
  return html`<dl>
    <dt>SP entity ID (audience)</dt><dd><code>${sp.entityId}</code></dd>
    <dt>ACS URL (HTTP-POST)</dt><dd><code>${sp.acsUrl}</code></dd>
    <dt>SP metadata URL</dt><dd><code>${sp.metadataUrl}</code></dd>
  </dl>`;
}

/** One connection: what it is, the values to enter at the identity provider, and its changes. */
function connectionSection(scope: PortalScope, c: SsoConnectionRecord, index: number): SafeHtml {
  const heading = `c-${c.id}`;
  const prefix = `c${index}`;
  return html`<section aria-labelledby="${heading}">
  <h3 id="${heading}">${c.protocol === 'saml' ? 'SAML' : 'OpenID Connect'}: ${c.issuer}</h3>
  <p>Enter these at your identity provider:</p>
  ${serviceProviderValues(scope, c)}
  ${c.protocol === 'saml' ? html`<dl>
    <dt>Signing certificates</dt>
    <dd>${c.saml.certificates.map((cert) => html`<code>${cert.fingerprintSha256}</code>, valid until ${cert.notAfter.toISOString().slice(0, 10)}<br>`)}</dd>
    ${c.metadataUrl ? html`<dt>Metadata URL</dt><dd><code>${c.metadataUrl}</code>${c.metadataRefresh.error ? html` (last reading failed: ${c.metadataRefresh.error})` : ''}</dd>` : ''}
  </dl>
  <form method="post" action="/portal/sso/metadata" enctype="multipart/form-data" novalidate>
    ${csrfField(scope.csrf)}
    <input type="hidden" name="id" value="${c.id}">
    ${textArea({ name: `${prefix}-metadata_xml`, label: 'New metadata XML', rows: 3 })}
    ${textField({ name: `${prefix}-metadata_url`, label: 'Or a new metadata URL', type: 'url' })}
    <button type="submit" aria-describedby="${heading}">Replace the metadata</button>
  </form>` : ''}
  <div class="actions">
    ${actionButton({ action: '/portal/sso/state', csrf: scope.csrf, fields: { id: c.id, state: c.state === 'active' ? 'inactive' : 'active' }, label: c.state === 'active' ? 'Turn off' : 'Turn on', describedBy: heading })}
    ${actionButton({ action: '/portal/sso/delete', csrf: scope.csrf, fields: { id: c.id }, label: 'Delete the connection', describedBy: heading, danger: true })}
  </div>
</section>`;
}

/** The fields of the per-connection metadata form, named after its connection's place: back to the service's names. */
function connectionMetadataForm(form: URLSearchParams): URLSearchParams {
  const fields = new URLSearchParams();
  for (const [name, value] of form) fields.append(name.replace(/^c\d+-/, ''), value);
  return fields;
}

/**
 * Single sign-on (SPEC-EXTENSIONS §9, §14): connect the company's OIDC provider, or its SAML identity provider by
 * pasting, uploading or linking its metadata, for its verified domains; each connection shows what to enter at the
 * identity provider, and is turned off, given new metadata or deleted here.
 */
export const ssoPage: PortalIntentPage = {
  title: 'Single sign-on',
  notices: {
    connected: 'The connection was made: people of its domains now sign in through your identity provider.',
    changed: 'The connection was changed.',
    deleted: 'The connection was deleted.',
  },

  async view(scope, { errors, values }) {
    const [connections, domains] = await Promise.all([scope.deps.stores.ssoConnections.ofTenant(scope.tenant.id), listDomains(scope.deps, scope.tenant.id)]);
    const verified = domains.filter((d) => d.state === 'verified').map((d) => ({ value: d.domain, label: d.domain }));
    const samlForm = values?.has('protocol');
    return html`${verified.length === 0 ? html`<p>Verify a domain first: a connection signs in the people of your verified domains.</p>` : ''}
<section aria-labelledby="connect-heading">
  <h2 id="connect-heading">Connect an OpenID Connect provider</h2>
  <form method="post" action="/portal/sso/connect" novalidate>
    ${csrfField(scope.csrf)}
    ${textField({ name: 'issuer', label: 'Issuer URL', type: 'url', hint: 'Its discovery document (/.well-known/openid-configuration) must answer', required: true, value: values?.get('issuer') ?? '', errors: samlForm ? {} : errors })}
    ${textField({ name: 'client_id', label: 'Client ID', required: true, autocomplete: 'off', value: values?.get('client_id') ?? '', errors: samlForm ? {} : errors })}
    ${textField({ name: 'client_secret', label: 'Client secret', type: 'password', hint: 'Kept encrypted; never shown again', required: true, autocomplete: 'off', errors: samlForm ? {} : errors })}
    ${checkboxes({ name: 'domains', legend: 'Domains it signs in (verified domains only)', choices: verified, checked: values?.getAll('domains') ?? verified.map((d) => d.value), errors: samlForm ? {} : errors, idPrefix: 'oidc-domains' })}
    <button type="submit">Connect</button>
  </form>
</section>
<section aria-labelledby="saml-heading">
  <h2 id="saml-heading">Connect a SAML identity provider</h2>
  <form method="post" action="/portal/sso/connect-saml" enctype="multipart/form-data" novalidate>
    ${csrfField(scope.csrf)}
    <input type="hidden" name="protocol" value="saml">
    ${textArea({ name: 'metadata_xml', label: 'Metadata XML', hint: "Paste your identity provider's SAML metadata, or upload its file, or give its URL below", value: samlForm ? (values?.get('metadata_xml') ?? '') : '', errors: samlForm ? errors : {} })}
    ${fileField({ name: 'metadata_file', label: 'Metadata file', accept: METADATA_FILE_TYPES, errors: samlForm ? errors : {} })}
    ${textField({ name: 'metadata_url', label: 'Metadata URL', type: 'url', hint: 'Read again every day: a new signing certificate is taken in by itself', value: samlForm ? (values?.get('metadata_url') ?? '') : '', errors: samlForm ? errors : {} })}
    ${checkboxes({ name: 'domains', legend: 'Domains it signs in (verified domains only)', choices: verified, checked: samlForm ? (values?.getAll('domains') ?? []) : verified.map((d) => d.value), errors: samlForm ? errors : {}, idPrefix: 'saml-domains' })}
    <button type="submit">Connect SAML</button>
  </form>
</section>
<section aria-labelledby="list-heading">
  <h2 id="list-heading">Connections</h2>
  ${(connections ?? []).length === 0 ? html`<p>No connection yet.</p>` : html`<table>
    <thead><tr><th scope="col">Protocol</th><th scope="col">Issuer</th><th scope="col">Client ID</th><th scope="col">Domains</th><th scope="col">State</th></tr></thead>
    <tbody>${(connections ?? []).map((c) => html`<tr><td>${c.protocol === 'saml' ? 'SAML' : 'OIDC'}</td><td>${c.issuer}</td><td>${c.protocol === 'oidc' ? c.clientId : '—'}</td><td>${c.domains.join(', ')}</td><td>${c.state}</td></tr>`)}</tbody>
  </table>
  ${(connections ?? []).map((c, i) => connectionSection(scope, c, i))}`}
</section>`;
  },

  actions: {
    async connect(scope, form) {
      const domains = form.getAll('domains');
      const parsed = OidcSsoConnectionCreate.safeParse({ issuer: form.get('issuer') ?? '', client_id: form.get('client_id') ?? '', client_secret: form.get('client_secret') ?? '', domains });
      if (!parsed.success) return { errors: fieldErrorsOf(parsed.error), values: form };
      return doneUnlessRefused('connected', 'issuer', form, () => createSsoConnection(scope.deps, scope.tenant.id, parsed.data, scope.meta));
    },
    'connect-saml': (scope, form) =>
      doneUnlessRefused('connected', form.get('metadata_url')?.trim() ? 'metadata_url' : 'metadata_xml', form, () =>
        createSsoConnection(scope.deps, scope.tenant.id, { protocol: 'saml', ...metadataOf(form), domains: form.getAll('domains') }, scope.meta),
      ),
    async metadata(scope, form) {
      const fields = connectionMetadataForm(form);
      return doneUnlessRefused('changed', 'form', new URLSearchParams(), () => updateSsoConnection(scope.deps, fields.get('id') ?? '', metadataOf(fields), scope.meta, scope.reach));
    },
    async state(scope, form) {
      const parsed = SsoConnectionPatch.safeParse({ state: form.get('state') ?? '' });
      if (!parsed.success) return { errors: { form: 'The connection could not be changed.' }, values: new URLSearchParams() };
      return doneUnlessRefused('changed', 'form', new URLSearchParams(), () => updateSsoConnection(scope.deps, form.get('id') ?? '', parsed.data, scope.meta, scope.reach));
    },
    delete: (scope, form) => doneUnlessRefused('deleted', 'form', new URLSearchParams(), () => deleteSsoConnection(scope.deps, form.get('id') ?? '', scope.meta, scope.reach)),
  },
};
