import { createInvitation } from '../../../domain/invitations/createInvitation.ts';
import { listInvitations } from '../../../domain/invitations/listInvitations.ts';
import { resendInvitation } from '../../../domain/invitations/resendInvitation.ts';
import { revokeInvitation } from '../../../domain/invitations/revokeInvitation.ts';
import { InvitationCreate, type Invitation } from '../../../domain/schemas/invitations.ts';
import { doneUnlessRefused } from '../portalActionErrors.ts';
import { actionButton, checkboxes, csrfField, fieldErrorsOf, textField } from '../portalForms.ts';
import { html } from '../portalHtml.ts';
import type { PortalIntentPage, PortalScope } from '../portalIntentPage.ts';
import { tenantRoleChoices } from './tenantRoleChoices.ts';

const when = (iso: string | null) => (iso ? new Date(iso).toUTCString() : '—');

/** Invitations (SPEC-EXTENSIONS §8): list them, invite a colleague, resend or revoke a pending invitation. */
export const invitationsPage: PortalIntentPage = {
  title: 'Invitations',
  notices: { invited: 'The invitation was sent.', resent: 'The invitation was sent again; the earlier link no longer works.', revoked: 'The invitation was revoked.' },

  async view(scope, { errors, values }) {
    const [page, roles] = await Promise.all([listInvitations(scope.deps, scope.tenant.id, { limit: 100 }), tenantRoleChoices(scope)]);
    const { items } = JSON.parse(page.toString()) as { items: Invitation[] };
    return html`<section aria-labelledby="invite-heading">
  <h2 id="invite-heading">Invite a colleague</h2>
  <form method="post" action="/portal/invitations/invite" novalidate>
    ${csrfField(scope.csrf)}
    ${textField({ name: 'email', label: 'E-mail address', type: 'email', required: true, autocomplete: 'off', value: values?.get('email') ?? '', errors })}
    ${checkboxes({ name: 'roles', legend: "Roles (none chosen: the tenant's default role)", choices: roles, checked: values?.getAll('roles') ?? [], errors })}
    <button type="submit">Send the invitation</button>
  </form>
</section>
<section aria-labelledby="list-heading">
  <h2 id="list-heading">Invitations</h2>
  ${items.length === 0 ? html`<p>No invitation yet.</p>` : html`<table>
    <caption class="visually-hidden">Invitations of this tenant, newest first</caption>
    <thead><tr><th scope="col">E-mail</th><th scope="col">Roles</th><th scope="col">State</th><th scope="col">Expires</th><th scope="col">Actions</th></tr></thead>
    <tbody>
    ${items.map((invitation) => html`<tr>
      <td id="inv-${invitation.id}">${invitation.email}</td><td>${invitation.roles.join(', ')}</td><td>${invitation.state}</td><td>${when(invitation.expires_at)}</td>
      <td class="actions">${invitation.state === 'pending'
        ? html`${actionButton({ action: '/portal/invitations/resend', csrf: scope.csrf, fields: { id: invitation.id }, label: 'Resend', describedBy: `inv-${invitation.id}` })}
               ${actionButton({ action: '/portal/invitations/revoke', csrf: scope.csrf, fields: { id: invitation.id }, label: 'Revoke', describedBy: `inv-${invitation.id}`, danger: true })}`
        : '—'}</td>
    </tr>`)}
    </tbody>
  </table>`}
</section>`;
  },

  actions: {
    async invite(scope: PortalScope, form) {
      const roles = form.getAll('roles');
      const parsed = InvitationCreate.safeParse({ email: form.get('email') ?? '', ...(roles.length > 0 ? { roles } : {}) });
      if (!parsed.success) return { errors: fieldErrorsOf(parsed.error), values: form };
      return doneUnlessRefused('invited', 'email', form, () => createInvitation(scope.deps, scope.tenant.id, parsed.data, scope.meta));
    },
    resend: (scope, form) => doneUnlessRefused('resent', 'form', new URLSearchParams(), () => resendInvitation(scope.deps, form.get('id') ?? '', scope.meta, scope.reach)),
    revoke: (scope, form) => doneUnlessRefused('revoked', 'form', new URLSearchParams(), () => revokeInvitation(scope.deps, form.get('id') ?? '', scope.meta, scope.reach)),
  },
};
