import type { Context } from 'koa';
import { AppError } from '../../domain/errors.ts';
import { refusedKeyPath } from '../../domain/sharedPrototypeKeys.ts';

const hasBody = (ctx: Context) =>
  ctx.req.headers['transfer-encoding'] !== undefined || Number(ctx.req.headers['content-length'] ?? 0) > 0;

/** application/json and application/<anything>+json, with or without parameters: decided without parsing. */
const PLAIN_JSON_TYPE = /^application\/(?:[\w!#$&^.-]+\+)?json[ \t]*(?:;|$)/i;

const isJson = (ctx: Context) => {
  const type = ctx.req.headers['content-type'];
  // The regular expression settles the common spellings; anything else gets the full media-type comparison.
  return type !== undefined && (PLAIN_JSON_TYPE.test(type) || ctx.request.is('application/json', 'application/*+json') !== false);
};

const unreadable = () => new AppError('invalid_input', 'request body could not be read');
const tooLarge = (limitBytes: number) => new AppError('payload_too_large', `request body exceeds ${limitBytes} bytes`);

/** The body's bytes as UTF-8 text, refusing more than `limitBytes` and a length that differs from Content-Length. */
function readText(ctx: Context, limitBytes: number): Promise<string> {
  const declared = ctx.req.headers['content-length'] === undefined ? undefined : Number(ctx.req.headers['content-length']);
  if (declared !== undefined && declared > limitBytes) return Promise.reject(tooLarge(limitBytes));
  return new Promise((resolve, reject) => {
    const req = ctx.req;
    const chunks: Buffer[] = [];
    let received = 0;
    const cleanup = () => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      req.off('aborted', onError);
      req.off('close', onError);
    };
    const onData = (chunk: Buffer) => {
      received += chunk.length;
      if (received > limitBytes) {
        cleanup();
        // Left unread: Node discards the rest of the body once the answer is sent.
        req.pause();
        reject(tooLarge(limitBytes));
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      cleanup();
      if (declared !== undefined && received !== declared) reject(unreadable());
      else resolve(chunks.length === 1 ? chunks[0]!.toString('utf8') : Buffer.concat(chunks, received).toString('utf8'));
    };
    const onError = () => {
      cleanup();
      reject(unreadable());
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    req.on('aborted', onError);
    req.on('close', onError);
  });
}

/**
 * Reads a JSON body up to `limitBytes`: over the limit is 413, another content type 415, malformed JSON 400.
 * Returns undefined when the request has no body at all, so optional bodies stay optional.
 * Hand-rolled rather than raw-body with type-is: it runs on every verify, claims and append, and this way costs
 * far less per request than those did.
 */
export async function readJsonBody(ctx: Context, limitBytes: number): Promise<unknown> {
  if (!hasBody(ctx)) return undefined;
  if (!isJson(ctx)) throw new AppError('unsupported_media_type', 'request body must be application/json');
  const text = await readText(ctx, limitBytes);
  if (text.trim() === '') return undefined;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new AppError('invalid_input', 'request body is not valid JSON');
  }
  // A "__proto__" key (spelt out or escaped) is refused before any code copies or walks the body (SPEC-EXTENSIONS §13).
  const proto = (text.includes('__proto__') || text.includes('\\u')) && refusedKeyPath(body, (key) => key === '__proto__');
  if (proto) throw new AppError('invalid_input', `request body may not have a "__proto__" key (${proto})`, { scimType: 'invalidPath' });
  return body;
}
