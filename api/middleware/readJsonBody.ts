import type { Context } from 'koa';
import getRawBody from 'raw-body';
import { AppError } from '../../domain/errors.ts';

const hasBody = (ctx: Context) =>
  ctx.request.headers['transfer-encoding'] !== undefined || Number(ctx.request.headers['content-length'] ?? 0) > 0;

/**
 * Reads a JSON body up to `limitBytes`: over the limit is 413, another content type 415, malformed JSON 400.
 * Returns undefined when the request has no body at all, so optional bodies stay optional.
 */
export async function readJsonBody(ctx: Context, limitBytes: number): Promise<unknown> {
  if (!hasBody(ctx)) return undefined;
  if (!ctx.request.is('application/json', 'application/*+json')) {
    throw new AppError('unsupported_media_type', 'request body must be application/json');
  }
  let text: string;
  try {
    text = await getRawBody(ctx.req, { limit: limitBytes, length: ctx.request.headers['content-length'], encoding: 'utf8' });
  } catch (error) {
    if ((error as { type?: string }).type === 'entity.too.large') {
      throw new AppError('payload_too_large', `request body exceeds ${limitBytes} bytes`);
    }
    throw new AppError('invalid_input', 'request body could not be read');
  }
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    throw new AppError('invalid_input', 'request body is not valid JSON');
  }
}
