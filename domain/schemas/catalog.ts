import { z } from 'zod';
import { Uuid } from './common.ts';
import { SIGN_IN_FAIL_MODES } from '../signIn/productClients.ts';

/** What a product chose for its sign-ins while the registry cannot be asked. */
export const SignInFail = z
  .enum(SIGN_IN_FAIL_MODES)
  .meta({ description: "while the registry cannot be asked: open, the identity provider decides from the state last pushed to the user; closed, it refuses (open unless set)" });

/** A Keycloak client id: printable, no spaces, at most 255 characters. */
export const ClientId = z.string().regex(/^[\x21-\x7e]{1,255}$/, 'must be 1 to 255 printable characters without spaces');

export const CatalogEntry = z
  .object({
    key: z.string(),
    name: z.string(),
    description: z.string(),
    plans_required: z.array(z.string()),
    demo_url: z.string().optional(),
    supports_trial: z.boolean(),
    client_ids: z.array(z.string()).meta({ description: "the identity provider's clients that sign the product's users in, sorted (SPEC-EXTENSIONS §15)" }),
    fail: SignInFail,
  })
  .meta({ id: 'CatalogEntry' });
export type CatalogEntry = z.infer<typeof CatalogEntry>;

export const CatalogList = z.object({ items: z.array(CatalogEntry) }).meta({ id: 'CatalogList' });

export const CatalogRequest = z
  .strictObject({ tenant_id: Uuid, product: z.string().min(1).max(100) })
  .meta({ id: 'CatalogRequest' });
export type CatalogRequest = z.infer<typeof CatalogRequest>;

export const ProductParams = z.object({ product: z.string().min(1).max(100) });

export const ProductClientsPut = z
  .strictObject({
    client_ids: z
      .array(ClientId)
      .max(100)
      .meta({ description: 'every client of the product, replacing those it had (an empty list: none); duplicates count once; a client another product has is 409' }),
    fail: SignInFail.optional().meta({ description: 'open or closed; absent, what the product had stays' }),
  })
  .meta({ id: 'ProductClientsPut' });
export type ProductClientsPut = z.infer<typeof ProductClientsPut>;
