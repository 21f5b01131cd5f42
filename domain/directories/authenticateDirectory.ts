import type { RegistryContext } from '../registryContext.ts';
import type { TokenBuckets } from '../rateLimits/tokenBuckets.ts';
import type { DirectoryRecord } from './directoryRecord.ts';
import { tokenOpens } from './directoryToken.ts';
import { findDirectory } from './directoryReads.ts';
import { ScimError } from './scimError.ts';

/**
 * The directory a SCIM request is for, by its bearer token: only that directory's token (current, or the one before
 * a rotation within its grace), only while the directory is active; anything else is 401, the same for a directory
 * that does not exist, so a token learns nothing of other directories. Past the directory's budget
 * (SCIM_RATE_LIMIT_PER_SECOND), 429 with the seconds to wait.
 */
export async function authenticateDirectory(
  context: RegistryContext,
  directoryId: string,
  authorization: string | undefined,
  limits: TokenBuckets | undefined,
): Promise<DirectoryRecord> {
  const token = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '')?.[1];
  if (!token) throw new ScimError('unauthorized', 'a bearer token of this directory is required');
  const directory = await findDirectory(context, directoryId);
  if (!directory || directory.state !== 'active' || !tokenOpens(directory, token, new Date())) {
    throw new ScimError('unauthorized', 'the bearer token is not valid for this directory');
  }
  const take = limits?.take(directory.id);
  if (take && !take.allowed) throw new ScimError('rate_limited', 'too many requests for this directory', { retryAfterSeconds: Math.max(1, Math.ceil(take.retryAfterMs / 1000)) });
  return directory;
}
