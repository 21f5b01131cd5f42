import { addDomain } from '../../../domain/domains/addDomain.ts';
import { verificationName, verificationValue } from '../../../domain/domains/domainRecord.ts';
import { listDomains } from '../../../domain/domains/listDomains.ts';
import { SUGGESTED_DOMAIN } from '../../../domain/domains/domainName.ts';
import { verifyDomainNow } from '../../../domain/domains/verifyDomain.ts';
import { DomainCreate } from '../../../domain/schemas/domains.ts';
import { doneUnlessRefused } from '../portalActionErrors.ts';
import { actionButton, csrfField, fieldErrorsOf, textField } from '../portalForms.ts';
import { html } from '../portalHtml.ts';
import type { PortalIntentPage } from '../portalIntentPage.ts';

/** Domains (SPEC-EXTENSIONS §9): add one and see the TXT record to publish, check it now, see each one's state. */
export const domainsPage: PortalIntentPage = {
  title: 'Domains',
  notices: {
    added: 'The domain was added. Publish its TXT record below; it is checked now and then by itself, or when you ask.',
    checked: 'The domain was checked: its state is below.',
  },

  async view(scope, { errors, values }) {
    const domains = await listDomains(scope.deps, scope.tenant.id);
    return html`<section aria-labelledby="add-heading">
  <h2 id="add-heading">Add a domain</h2>
  <form method="post" action="/portal/domains/add" novalidate>
    ${csrfField(scope.csrf)}
    ${textField({ name: 'domain', label: 'Domain name', hint: `A domain your company holds: the part after the @ of its e-mail addresses, such as ${SUGGESTED_DOMAIN}`, required: true, value: values?.get('domain') ?? '', errors })}
    <button type="submit">Add the domain</button>
  </form>
</section>
<section aria-labelledby="list-heading">
  <h2 id="list-heading">Domains</h2>
  ${domains.length === 0 ? html`<p>No domain yet.</p>` : html`<table>
    <thead><tr><th scope="col">Domain</th><th scope="col">State</th><th scope="col">TXT record to publish</th><th scope="col">Actions</th></tr></thead>
    <tbody>
    ${domains.map((domain) => html`<tr>
      <td id="d-${domain.id}">${domain.domain}</td>
      <td>${domain.state}</td>
      <td><dl><dt>Name</dt><dd><code>${verificationName(domain.domain)}</code></dd><dt>Value</dt><dd><code>${verificationValue(domain.token)}</code></dd></dl></td>
      <td>${domain.state === 'verified' ? '—' : actionButton({ action: '/portal/domains/verify', csrf: scope.csrf, fields: { id: domain.id }, label: 'Check now', describedBy: `d-${domain.id}` })}</td>
    </tr>`)}
    </tbody>
  </table>`}
</section>`;
  },

  actions: {
    async add(scope, form) {
      const parsed = DomainCreate.safeParse({ domain: form.get('domain') ?? '' });
      if (!parsed.success) return { errors: fieldErrorsOf(parsed.error), values: form };
      return doneUnlessRefused('added', 'domain', form, () => addDomain(scope.deps, scope.tenant.id, parsed.data.domain, scope.meta));
    },
    verify: (scope, form) => doneUnlessRefused('checked', 'form', new URLSearchParams(), () => verifyDomainNow(scope.deps, form.get('id') ?? '', scope.meta, scope.reach)),
  },
};
