import { describe, expect, it } from 'vitest';
import { checkStreamTarget } from '../../../domain/auditStreams/checkStreamTarget.ts';
import type { StreamTargets } from '../../../domain/auditStreams/streamTargets.ts';

/** A resolver that plays DNS: each name's answer, and a failure for any other. */
const dns = (answers: Record<string, string[]>): StreamTargets['resolveHost'] => async (host) => {
  const found = answers[host];
  if (!found) throw new Error(`getaddrinfo ENOTFOUND ${host}`);
  return found;
};
const open: StreamTargets = { resolveHost: dns({ 'siem.example': ['203.0.114.10'], 'intranet.example': ['10.20.30.40'], 'both.example': ['198.51.99.1', '::1'] }) };

describe('checkStreamTarget', () => {
  it('takes only http(s) URLs without credentials', async () => {
    await expect(checkStreamTarget('https://siem.example/in', open)).resolves.toBeUndefined();
    await expect(checkStreamTarget('ftp://siem.example/in', open)).rejects.toThrow(/http or https/);
    await expect(checkStreamTarget('https://user:pw@siem.example/in', open)).rejects.toThrow(/credentials/);
  });

  it('without AUDIT_STREAM_ALLOWED_HOSTS refuses a literal or resolved address that is not public, and a name that does not resolve', async () => {
    for (const url of ['http://127.0.0.1/in', 'http://[::1]/in', 'http://10.1.2.3/in', 'http://169.254.169.254/latest', 'http://[::ffff:127.0.0.1]/in', 'http://0x7f.1/in']) {
      await expect(checkStreamTarget(url, open), url).rejects.toMatchObject({ code: 'invalid_input', message: expect.stringMatching(/AUDIT_STREAM_ALLOWED_HOSTS/) });
    }
    await expect(checkStreamTarget('http://localhost:8080/in', open)).rejects.toThrow(/localhost is a loopback name/);
    await expect(checkStreamTarget('http://metadata.google.internal/computeMetadata/v1', open)).rejects.toThrow(/cloud metadata name/);
    await expect(checkStreamTarget('https://intranet.example/in', open)).rejects.toThrow(/intranet.example resolves to 10.20.30.40, a private address/);
    await expect(checkStreamTarget('https://both.example/in', open)).rejects.toThrow(/resolves to ::1, a loopback address/);
    await expect(checkStreamTarget('https://nowhere.example/in', open)).rejects.toThrow(/could not be resolved: getaddrinfo ENOTFOUND/);
  });

  it('with AUDIT_STREAM_ALLOWED_HOSTS takes only the hosts it names, whatever they resolve to, without resolving them', async () => {
    const allowed: StreamTargets = { allowedHosts: ['siem.internal', '127.0.0.1', '::1'], resolveHost: dns({}) };
    await expect(checkStreamTarget('https://SIEM.internal/in', allowed)).resolves.toBeUndefined();
    await expect(checkStreamTarget('http://127.0.0.1:9000/in', allowed)).resolves.toBeUndefined();
    await expect(checkStreamTarget('http://[::1]:9000/in', allowed)).resolves.toBeUndefined();
    await expect(checkStreamTarget('https://siem.example/in', allowed)).rejects.toThrow(/siem.example is not in AUDIT_STREAM_ALLOWED_HOSTS/);
  });
});
