/**
 * The fields of a multipart/form-data body (RFC 7578) as a form's fields: each part by its name, a file's content as
 * its value (UTF-8 text: the portal's only file is SAML metadata). Undefined for a body that is not well formed.
 */
export function multipartFields(body: Buffer, contentType: string): URLSearchParams | undefined {
  const boundary = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  const marker = boundary?.[1] ?? boundary?.[2];
  if (!marker) return undefined;
  const delimiter = Buffer.from(`--${marker}`);
  const next = Buffer.from(`\r\n--${marker}`);
  const fields = new URLSearchParams();
  let at = body.indexOf(delimiter);
  if (at < 0) return undefined;
  at += delimiter.length;
  for (;;) {
    if (body.subarray(at, at + 2).toString('latin1') === '--') return fields;
    if (body.subarray(at, at + 2).toString('latin1') !== '\r\n') return undefined;
    const headersEnd = body.indexOf('\r\n\r\n', at + 2);
    if (headersEnd < 0) return undefined;
    const headers = body.subarray(at + 2, headersEnd).toString('utf8');
    const end = body.indexOf(next, headersEnd + 4);
    if (end < 0) return undefined;
    const name = /(?:^|;)\s*name="([^"]*)"/im.exec(headers.split('\r\n').find((line) => /^content-disposition:/i.test(line)) ?? '')?.[1];
    if (name !== undefined) fields.append(name, body.subarray(headersEnd + 4, end).toString('utf8'));
    at = end + next.length;
  }
}
