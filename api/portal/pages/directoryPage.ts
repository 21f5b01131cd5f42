import { createDirectory } from '../../../domain/directories/createDirectory.ts';
import { toDirectory } from '../../../domain/directories/directoryResponse.ts';
import { refusalOf } from '../portalActionErrors.ts';
import { csrfField } from '../portalForms.ts';
import { html } from '../portalHtml.ts';
import type { PortalIntentPage, PortalScope } from '../portalIntentPage.ts';
import { publicBaseUrl } from '../../routes/directories/publicBaseUrl.ts';

async function directoriesTable(scope: PortalScope) {
  const directories = (await scope.deps.stores.directories.ofTenant(scope.tenant.id)) ?? [];
  const base = publicBaseUrl(scope.deps);
  return html`<section aria-labelledby="list-heading">
  <h2 id="list-heading">Directories</h2>
  ${directories.length === 0 ? html`<p>No directory yet.</p>` : html`<table>
    <thead><tr><th scope="col">SCIM base URL</th><th scope="col">State</th><th scope="col">Users</th><th scope="col">Groups</th><th scope="col">Last sync</th></tr></thead>
    <tbody>${directories.map((d) => {
      const shown = toDirectory(d, base);
      return html`<tr><td><code>${shown.scim_base_url}</code></td><td>${shown.state}</td><td>${shown.users}</td><td>${shown.groups}</td><td>${shown.last_synced_at ?? '—'}</td></tr>`;
    })}</tbody>
  </table>`}
</section>`;
}

/** Directory sync (SPEC-EXTENSIONS §10): make the SCIM directory the company's identity provider syncs into, and see its token once. */
export const directoryPage: PortalIntentPage = {
  title: 'Directory sync',
  notices: {},

  async view(scope) {
    return html`<section aria-labelledby="create-heading">
  <h2 id="create-heading">Create a SCIM directory</h2>
  <p>Your identity provider (Okta, Microsoft Entra ID) is given the directory's SCIM base URL and its token, which is shown once.</p>
  <form method="post" action="/portal/directory/create">
    ${csrfField(scope.csrf)}
    <button type="submit">Create a directory</button>
  </form>
</section>
${await directoriesTable(scope)}`;
  },

  actions: {
    async create(scope) {
      let made: Awaited<ReturnType<typeof createDirectory>>;
      try {
        made = await createDirectory(scope.deps, scope.tenant.id, undefined, scope.meta);
      } catch (error) {
        return { errors: refusalOf(error, 'form'), values: new URLSearchParams() };
      }
      const shown = toDirectory({ ...made.directory, users: 0, groups: 0 }, publicBaseUrl(scope.deps));
      return {
        notice: 'The directory was created. Copy its token now: it is shown this once.',
        body: html`<section aria-labelledby="token-heading">
  <h2 id="token-heading">Give these to your identity provider</h2>
  <dl>
    <dt>SCIM base URL</dt><dd><p class="secret">${shown.scim_base_url}</p></dd>
    <dt>Bearer token (shown once)</dt><dd><p class="secret" id="directory-token">${made.token}</p></dd>
  </dl>
  <p><a href="/portal/directory">I have copied the token</a></p>
</section>
${await directoriesTable(scope)}`,
      };
    },
  },
};
