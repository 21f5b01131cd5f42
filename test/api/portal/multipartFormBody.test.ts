import { describe, expect, it } from 'vitest';
import { multipartFields } from '../../../api/portal/multipartFormBody.ts';

/** The portal's multipart forms as a browser sends them (RFC 7578): fields and a file's content by their names. */
const body = (boundary: string, parts: string[]) => Buffer.from(`${parts.map((p) => `--${boundary}\r\n${p}\r\n`).join('')}--${boundary}--\r\n`);

describe('a multipart form body', () => {
  it("gives each field, and a file's content, by its name (a filename= is not the name)", () => {
    const fields = multipartFields(
      body('XyZ', [
        'Content-Disposition: form-data; name="_csrf"\r\n\r\ntoken',
        'Content-Disposition: form-data; name="metadata_file"; filename="name=\\"x\\".xml"\r\nContent-Type: text/xml\r\n\r\n<md:EntityDescriptor>\r\nline two</md:EntityDescriptor>',
        'Content-Disposition: form-data; name="domains"\r\n\r\na.test',
        'Content-Disposition: form-data; name="domains"\r\n\r\nb.test',
      ]),
      'multipart/form-data; boundary=XyZ',
    );
    expect(fields?.get('_csrf')).toBe('token');
    expect(fields?.get('metadata_file')).toBe('<md:EntityDescriptor>\r\nline two</md:EntityDescriptor>');
    expect(fields?.getAll('domains')).toEqual(['a.test', 'b.test']);
  });

  it('is none without a boundary, or when a part is cut short', () => {
    expect(multipartFields(Buffer.from('x'), 'multipart/form-data')).toBeUndefined();
    expect(multipartFields(Buffer.from('--XyZ\r\nContent-Disposition: form-data; name="a"\r\n\r\nvalue'), 'multipart/form-data; boundary="XyZ"')).toBeUndefined();
  });
});
