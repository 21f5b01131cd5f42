import { resolveClaimsRoute } from './resolveClaims.ts';

export const claimsRoutes = [resolveClaimsRoute];
