import { invalidInput, notFound } from '../errors.ts';
import { INVITATION_LIST_DEFAULT_LIMIT, type InvitationListQuery } from '../schemas/invitations.ts';
import type { RegistryContext } from '../registryContext.ts';
import { keptListing } from '../reads/keptListing.ts';
import { invitationListing } from '../reads/listingNames.ts';
import type { InvitationRecord } from './invitationRecord.ts';
import type { InvitationListPosition } from './invitationRepository.ts';

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A next_cursor: the last invitation's creation (milliseconds) and id, base64url. */
export const invitationCursor = (invitation: Pick<InvitationRecord, 'createdAt' | 'id'>): string =>
  Buffer.from(`${invitation.createdAt.getTime()}.${invitation.id}`).toString('base64url');

export function invitationPosition(cursor: string): InvitationListPosition {
  const [millis, id] = Buffer.from(cursor, 'base64url').toString().split('.');
  const createdAt = new Date(Number(millis));
  if (!/^\d{1,15}$/.test(millis ?? '') || Number.isNaN(createdAt.getTime()) || !UUID_PATTERN.test(id ?? '')) {
    throw invalidInput('cursor: must be a next_cursor of this listing');
  }
  return { createdAt, id: id! };
}

/**
 * A tenant's invitations newest first, by state and address, in pages: the InvitationList body's JSON text, kept until
 * the tenant's invitations change (domain/reads/keptListing.ts).
 */
export async function listInvitations({ stores, cache }: Pick<RegistryContext, 'stores' | 'cache'>, tenantId: string, query: InvitationListQuery): Promise<string | Buffer> {
  const limit = query.limit ?? INVITATION_LIST_DEFAULT_LIMIT;
  const after = query.cursor === undefined ? undefined : invitationPosition(query.cursor);
  return keptListing(cache, invitationListing(tenantId), invitationListingQuery(query, limit), async () => {
    const rows = await stores.invitations.page(tenantId, { state: query.state, email: query.email }, after, limit + 1);
    if (!rows) throw notFound('tenant');
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    const items = `[${page.map((row) => row.json).join(',')}]`;
    return rows.length > limit && last ? `{"items":${items},"next_cursor":"${invitationCursor(last)}"}` : `{"items":${items}}`;
  });
}

/** What a page of a tenant's invitations is kept under; the e-mail, the only free text, goes last, so two queries never share a key. */
export const invitationListingQuery = (query: InvitationListQuery, limit: number) => `${limit}|${query.cursor ?? ''}|${query.state ?? ''}|${query.email ?? ''}`;
