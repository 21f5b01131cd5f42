import { describe, expect, it } from 'vitest';
import { dueCertificateNotice, nextCertificateNoticeAt, type CertificateNotice } from '../../../domain/sso/certificateNotices.ts';

const DAY = 24 * 3600_000;
const notAfter = new Date('2027-03-01T12:00:00Z');
const at = (daysBefore: number) => notAfter.getTime() - daysBefore * DAY;
const sent = (...notices: CertificateNotice[]) => new Set(notices);

describe("a SAML certificate's expiry notices", () => {
  it('are due 30, 7 and 1 days before not_after and at it, each once', () => {
    expect(dueCertificateNotice(notAfter, sent(), at(31))).toBeUndefined();
    expect(dueCertificateNotice(notAfter, sent(), at(30))?.notice).toBe('expiring_30d');
    expect(dueCertificateNotice(notAfter, sent('expiring_30d'), at(20))).toBeUndefined();
    expect(dueCertificateNotice(notAfter, sent('expiring_30d'), at(7))?.notice).toBe('expiring_7d');
    expect(dueCertificateNotice(notAfter, sent('expiring_30d', 'expiring_7d'), at(1))).toMatchObject({ notice: 'expiring_1d', daysBefore: 1 });
    expect(dueCertificateNotice(notAfter, sent('expiring_30d', 'expiring_7d', 'expiring_1d'), at(0))?.notice).toBe('expired');
    expect(dueCertificateNotice(notAfter, sent('expiring_30d', 'expiring_7d', 'expiring_1d', 'expired'), at(-100))).toBeUndefined();
  });

  it("give a certificate first seen inside a window that window's notice at once, and never the earlier ones", () => {
    expect(dueCertificateNotice(notAfter, sent(), at(5))?.notice).toBe('expiring_7d');
    expect(dueCertificateNotice(notAfter, sent(), at(-1))?.notice).toBe('expired');
    // Once the 7-day notice is sent, the skipped 30-day one stays unsent: the next is the 1-day notice.
    expect(dueCertificateNotice(notAfter, sent('expiring_7d'), at(3))).toBeUndefined();
    expect(nextCertificateNoticeAt(notAfter, sent('expiring_7d'))).toBe(at(1));
  });

  it('wake the actor at the first window left, and not at all once expired is sent', () => {
    expect(nextCertificateNoticeAt(notAfter, sent())).toBe(at(30));
    expect(nextCertificateNoticeAt(notAfter, sent('expiring_30d'))).toBe(at(7));
    expect(nextCertificateNoticeAt(notAfter, sent('expiring_30d', 'expiring_7d', 'expiring_1d'))).toBe(at(0));
    expect(nextCertificateNoticeAt(notAfter, sent('expired'))).toBeUndefined();
  });
});
