import { notFound } from '../../../domain/errors.ts';
import { deactivateMember } from '../../../domain/members/deactivateMember.ts';
import { listMembers } from '../../../domain/members/listMembers.ts';
import { putMember } from '../../../domain/members/putMember.ts';
import { reactivateMember } from '../../../domain/members/reactivateMember.ts';
import { removeMember } from '../../../domain/members/removeMember.ts';
import { MemberPut, type Member } from '../../../domain/schemas/members.ts';
import { doneUnlessRefused } from '../portalActionErrors.ts';
import { actionButton, checkboxes, csrfField, fieldErrorsOf } from '../portalForms.ts';
import { html } from '../portalHtml.ts';
import type { PortalIntentPage, PortalScope } from '../portalIntentPage.ts';
import { tenantRoleChoices } from './tenantRoleChoices.ts';

/** A member's user id as an id attribute can hold it (ids of the identity provider are UUIDs, a simulated one too). */
const anchor = (userId: string) => `m-${userId.replace(/[^A-Za-z0-9_-]/g, '_')}`;

/** Members (SPEC-EXTENSIONS §7): change a member's roles, deactivate, reactivate or remove it. */
export const membersPage: PortalIntentPage = {
  title: 'Members',
  notices: { roles: "The member's roles were changed.", deactivated: 'The member was deactivated.', reactivated: 'The member was reactivated.', removed: 'The member was removed.' },

  async view(scope, { errors, values }) {
    const [page, roles] = await Promise.all([listMembers(scope.deps, scope.tenant.id, { limit: 500 }, scope.deps.cache), tenantRoleChoices(scope)]);
    const { items } = JSON.parse(page.toString('utf8')) as { items: Member[] };
    const failedFor = values?.get('user_id');
    return html`<section aria-labelledby="members-heading">
  <h2 id="members-heading">Members of the tenant</h2>
  ${items.length === 0 ? html`<p>No member yet.</p>` : html`<table>
    <thead><tr><th scope="col">Member</th><th scope="col">Status</th><th scope="col">Roles</th><th scope="col">Actions</th></tr></thead>
    <tbody>
    ${items.map((member) => {
      const id = anchor(member.user_id);
      const mine = failedFor === member.user_id;
      return html`<tr>
      <td id="${id}">${member.name || member.email}<br><span class="hint">${member.email} · ${member.source}</span></td>
      <td>${member.status}</td>
      <td><form method="post" action="/portal/members/roles">
        ${csrfField(scope.csrf)}<input type="hidden" name="user_id" value="${member.user_id}">
        ${checkboxes({ name: 'roles', legend: `Roles of ${member.email}`, choices: roles, checked: mine ? (values?.getAll('roles') ?? []) : member.roles, errors: mine ? errors : {}, idPrefix: `${id}-roles` })}
        <button type="submit" aria-describedby="${id}">Save roles</button>
      </form></td>
      <td class="actions">
        ${member.status === 'inactive'
          ? actionButton({ action: '/portal/members/reactivate', csrf: scope.csrf, fields: { user_id: member.user_id }, label: 'Reactivate', describedBy: id })
          : actionButton({ action: '/portal/members/deactivate', csrf: scope.csrf, fields: { user_id: member.user_id }, label: 'Deactivate', describedBy: id })}
        ${actionButton({ action: '/portal/members/remove', csrf: scope.csrf, fields: { user_id: member.user_id }, label: 'Remove', describedBy: id, danger: true })}
      </td>
    </tr>`;
    })}
    </tbody>
  </table>`}
</section>`;
  },

  actions: {
    async roles(scope: PortalScope, form) {
      const parsed = MemberPut.safeParse({ roles: form.getAll('roles') });
      if (!parsed.success) return { errors: fieldErrorsOf(parsed.error), values: form };
      const userId = form.get('user_id') ?? '';
      return doneUnlessRefused('roles', 'roles', form, async () => {
        // Only a member the tenant has: a change of roles never adds someone through the portal.
        if (!(await scope.deps.stores.members.find(scope.tenant.id, userId))) throw notFound('member');
        await putMember(scope.deps, scope.tenant.id, userId, parsed.data, scope.meta);
      });
    },
    deactivate: (scope, form) => doneUnlessRefused('deactivated', 'form', form, () => deactivateMember(scope.deps, scope.tenant.id, form.get('user_id') ?? '', scope.meta)),
    reactivate: (scope, form) => doneUnlessRefused('reactivated', 'form', form, () => reactivateMember(scope.deps, scope.tenant.id, form.get('user_id') ?? '', scope.meta)),
    remove: (scope, form) => doneUnlessRefused('removed', 'form', form, () => removeMember(scope.deps, scope.tenant.id, form.get('user_id') ?? '', scope.meta)),
  },
};
