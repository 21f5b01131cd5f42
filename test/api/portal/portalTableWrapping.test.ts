import { mkdir } from 'node:fs/promises';
import { resolve } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { launchTestBrowser, type TestBrowser } from '../../support/keycloakBrowser.ts';
import { insertMember } from '../../support/memberRows.ts';
import { startTestService, uniqueSlug, type TestService } from '../../support/testService.ts';

/**
 * The portal's tables in Chromium: a cell breaks its text between words, never inside one ("pendin g"), at a desktop's
 * width and at a phone's, and the pages are photographed (.data/test/screenshots/portal-tables-*.png).
 */
const shots = resolve(import.meta.dirname, '../../../.data/test/screenshots');
let service: TestService;
let browser: TestBrowser;
beforeAll(async () => {
  service = await startTestService();
  browser = await launchTestBrowser();
  await mkdir(shots, { recursive: true });
});
afterAll(async () => {
  await browser?.close();
  await service?.close();
});

/** Each cell whose text is one of `words`, with the number of lines it is laid out on. */
const linesOfCells = async (words: string[]) =>
  // A text evaluated in the page: the project's TypeScript has no DOM types.
  (await browser.page.evaluate(`[...document.querySelectorAll('td')]
    .filter((td) => ${JSON.stringify(words)}.includes(td.textContent.trim()))
    .map((td) => {
      const range = document.createRange();
      range.selectNodeContents(td);
      return [td.textContent.trim(), new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size];
    })`)) as [string, number][];

it('a table cell keeps each word whole: a state, a role, an action take one line', { timeout: 120_000 }, async () => {
  const tenant = (await service.request('POST', '/v1/tenants', { slug: uniqueSlug('shot'), name: 'Acme Corporation' })).body.tenant;
  for (const name of ['alice', 'bob']) await service.request('POST', `/v1/tenants/${tenant.id}/invitations`, { email: `${name}.with.a.long.name@${tenant.slug}.example`, send_email: false });
  for (const intent of ['invitations', 'audit']) {
    const link = (await service.request('POST', `/v1/tenants/${tenant.id}/portal-links`, { intent })).body;
    const url = new URL(link.url);
    await browser.page.goto(`${service.baseUrl}${url.pathname}${url.search}`);
    await browser.page.getByRole('button', { name: 'Open the admin portal' }).click();
    await browser.page.waitForURL(`**/portal/${intent}`);
    await browser.page.screenshot({ path: resolve(shots, `portal-tables-${intent}.png`), fullPage: true });
    const cells = await linesOfCells(intent === 'audit' ? ['portal.link_opened', 'portal.link_created', 'invitation.created'] : ['pending', 'MEMBER']);
    expect(cells.length, intent).toBeGreaterThan(0);
    for (const [text, lines] of cells) expect(lines, text).toBe(1);
  }
});

it('at a narrow width (a phone) the members and audit tables still keep each word whole', { timeout: 120_000 }, async () => {
  const tenant = (await service.request('POST', '/v1/tenants', { slug: uniqueSlug('narrow'), name: 'Acme Corporation' })).body.tenant;
  await insertMember(service.orm, { tenantId: tenant.id, userId: 'alice-with-a-long-name', status: 'pending', roles: ['MEMBER'] });
  await insertMember(service.orm, { tenantId: tenant.id, userId: 'bob', status: 'active', roles: ['IT_ADMIN', 'MEMBER'] });
  await service.request('POST', `/v1/tenants/${tenant.id}/invitations`, { email: `carol.with.a.long.name@${tenant.slug}.example`, send_email: false });
  await browser.page.setViewportSize({ width: 360, height: 780 });
  try {
    for (const intent of ['members', 'audit']) {
      const link = (await service.request('POST', `/v1/tenants/${tenant.id}/portal-links`, { intent })).body;
      const url = new URL(link.url);
      await browser.page.goto(`${service.baseUrl}${url.pathname}${url.search}`);
      await browser.page.getByRole('button', { name: 'Open the admin portal' }).click();
      await browser.page.waitForURL(`**/portal/${intent}`);
      await browser.page.screenshot({ path: resolve(shots, `portal-tables-narrow-${intent}.png`), fullPage: true });
      const cells = await linesOfCells(intent === 'audit' ? ['portal.link_opened', 'portal.link_created', 'invitation.created'] : ['pending', 'active', 'MEMBER']);
      expect(cells.length, intent).toBeGreaterThan(0);
      for (const [text, lines] of cells) expect(lines, text).toBe(1);
      // The table scrolls within its section; the page stays the screen's width.
      expect(await browser.page.evaluate('document.documentElement.scrollWidth'), intent).toBeLessThanOrEqual(360);
    }
  } finally {
    await browser.page.setViewportSize({ width: 1180, height: 820 });
  }
});
