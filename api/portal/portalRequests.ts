import type { Context } from 'koa';
import { multipartFields } from './multipartFormBody.ts';

/** A form's body (application/x-www-form-urlencoded, or multipart/form-data for a file) up to `limit` bytes; anything else is none. */
export async function readFormBody(ctx: Context, limit: number): Promise<URLSearchParams | undefined> {
  const multipart = typeof ctx.is('multipart/form-data') === 'string';
  if (!multipart && !ctx.is('application/x-www-form-urlencoded')) return undefined;
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req) {
    size += (chunk as Buffer).length;
    if (size > limit) return undefined;
    chunks.push(chunk as Buffer);
  }
  if (multipart) return multipartFields(Buffer.concat(chunks), ctx.get('content-type'));
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

/**
 * A POST the page itself sent: its Origin (or, without one, its Sec-Fetch-Site) names this origin. With SameSite=Strict
 * and the form's token, a third check against a form another site submits, also where no session exists yet.
 */
export function sameOrigin(ctx: Context): boolean {
  const origin = ctx.get('origin');
  // Koa 3's ctx.origin is the request's Origin header itself: this origin is the request's protocol and host.
  if (origin) return origin === `${ctx.protocol}://${ctx.host}`;
  const site = ctx.get('sec-fetch-site');
  return !site || site === 'same-origin';
}

/** What every portal answer carries: it is never framed, cached, sniffed, nor does it load anything from elsewhere. */
export function setPortalHeaders(ctx: Context): void {
  ctx.set('Content-Security-Policy', "default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'");
  ctx.set('X-Frame-Options', 'DENY');
  ctx.set('Cache-Control', 'no-store');
  // same-origin, not no-referrer: under no-referrer Chromium sends `Origin: null` with the page's own forms.
  ctx.set('Referrer-Policy', 'same-origin');
  ctx.set('X-Content-Type-Options', 'nosniff');
}
