import { z } from 'zod';
import { PORTAL_INTENTS } from '../portal/portalIntent.ts';
import { DateTime } from './common.ts';

export const PortalLinkCreate = z
  .object({
    intent: z.enum(PORTAL_INTENTS).meta({ description: 'the part of the tenant\'s administration the link opens, and nothing else' }),
    return_url: z
      .url({ protocol: /^https?$/ })
      .max(2000)
      .optional()
      .meta({ description: 'where the portal\'s "Done" link leads back to (an http or https URL of the caller\'s own product)' }),
  })
  .strict()
  .meta({ id: 'PortalLinkCreate' });

export const PortalLink = z
  .object({
    url: z.string().meta({ description: "the single-use link to hand to the tenant's IT admin, shown this once (only its hash is kept)" }),
    intent: z.enum(PORTAL_INTENTS),
    expires_at: DateTime.meta({ description: 'five minutes from now: unopened by then, the link opens nothing' }),
  })
  .meta({ id: 'PortalLink' });
