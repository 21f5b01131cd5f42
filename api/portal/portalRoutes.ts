import type { Context, Middleware } from 'koa';
import { isPortalIntent, type PortalIntent } from '../../domain/portal/portalIntent.ts';
import type { PortalSessionRecord } from '../../domain/portal/portalRecords.ts';
import { csrfTokenMatches } from '../../domain/portal/portalSecret.ts';
import { openPortalLink, portalActor, portalReach, portalSessionOf, type PortalSessionEnd } from '../../domain/portal/portalSessions.ts';
import type { TenantRecord } from '../../domain/tenants/tenantRecord.ts';
import type { AppContext } from '../appDependencies.ts';
import { errorResponse } from '../errorResponse.ts';
import { queryObject } from '../routing/queryObject.ts';
import { requestMeta } from '../routing/requestMeta.ts';
import { auditPage } from './pages/auditPage.ts';
import { directoryPage } from './pages/directoryPage.ts';
import { domainsPage } from './pages/domainsPage.ts';
import { invitationsPage } from './pages/invitationsPage.ts';
import { membersPage } from './pages/membersPage.ts';
import { ssoPage } from './pages/ssoPage.ts';
import { html } from './portalHtml.ts';
import type { PortalIntentPage, PortalScope } from './portalIntentPage.ts';
import { portalPage, PORTAL_STYLESHEET } from './portalLayout.ts';
import { readFormBody, sameOrigin, setPortalHeaders } from './portalRequests.ts';
import { PORTAL_CSS } from './portalStylesheet.ts';

/** Everything beneath it is the portal's: its own pages, authenticated by its own cookie. */
export const PORTAL_PATH_PREFIX = '/portal/';
const COOKIE = 'portal_session';
/** A form's body at most: room for an identity provider's SAML metadata, pasted or uploaded. */
const FORM_LIMIT_BYTES = 256 * 1024;

const PAGES: Record<PortalIntent, PortalIntentPage> = {
  members: membersPage,
  invitations: invitationsPage,
  domains: domainsPage,
  sso: ssoPage,
  directory: directoryPage,
  audit: auditPage,
};

/** A page of the portal with no session behind it (a link that opens nothing, a session that ended). */
function message(ctx: Context, status: number, title: string, text: string): void {
  ctx.status = status;
  ctx.type = 'text/html; charset=utf-8';
  ctx.body = portalPage({ title, body: html`<p>${text}</p><p>Ask whoever sent you the link for a new one.</p>` });
}

const REFUSALS = {
  unknown: [404, 'This link is not valid', 'This link does not open the admin portal: it may have been copied incompletely.'],
  used: [410, 'This link has been used', 'A portal link opens once, and this one has been opened already.'],
  expired: [410, 'This link has expired', 'A portal link opens within five minutes of being made, and this one is older.'],
} as const;

const SESSION_ENDS: Record<PortalSessionEnd, string> = {
  idle: 'A portal session ends after 30 minutes without use.',
  lifetime: 'A portal session ends 8 hours after it was opened.',
  tenant_closed: "Your organization's account is closed, and its portal sessions with it.",
};

/** The interstitial a link opens: a link scanner's GET spends nothing; the person's button press opens the session. */
function openPage(ctx: Context, token: string): void {
  ctx.type = 'text/html; charset=utf-8';
  ctx.body = portalPage({
    title: 'Open the admin portal',
    body: html`<p>You were given a link to administer your organization's account. It opens once, for this browser.</p>
<form method="post" action="/portal/open"><input type="hidden" name="token" value="${token}"><button type="submit">Open the admin portal</button></form>`,
  });
}

/**
 * The self-serve admin portal (SPEC-EXTENSIONS §11): server-rendered pages, one per intent, for the session's tenant
 * only. Every change is a call of the services of sections 7–10 with the session as actor and its tenant as reach.
 */
export function portalRoutes(deps: AppContext): Middleware {
  const scopeOf = (ctx: Context, session: PortalSessionRecord, tenant: TenantRecord): PortalScope => {
    return { deps, session, tenant: { id: tenant.id, name: tenant.name, slug: tenant.slug }, meta: portalActor(session, requestMeta(ctx)), reach: portalReach(session), csrf: session.csrfToken };
  };

  const render = async (ctx: Context, page: PortalIntentPage, scope: PortalScope, state: Parameters<PortalIntentPage['view']>[1], status = 200) => {
    const formError = state.errors?.form;
    const body = html`${formError ? html`<div class="error-summary" role="alert"><p class="error">${formError}</p></div>` : ''}${await page.view(scope, state)}`;
    ctx.status = status;
    ctx.type = 'text/html; charset=utf-8';
    ctx.body = portalPage({ title: page.title, tenantName: scope.tenant.name, ...(state.notice ? { notice: state.notice } : {}), session: { csrf: scope.csrf, returnUrl: scope.session.returnUrl }, body });
  };

  const handle = async (ctx: Context): Promise<void> => {
    const path = ctx.path;
    if (path === PORTAL_STYLESHEET && ctx.method === 'GET') {
      ctx.type = 'text/css; charset=utf-8';
      ctx.body = PORTAL_CSS;
      return;
    }
    if (path === '/portal/open') {
      if (ctx.method === 'GET') return openPage(ctx, queryObject(ctx.querystring).token?.toString() ?? '');
      if (ctx.method !== 'POST') return message(ctx, 405, 'Not allowed', 'This page is opened from a portal link.');
      if (!sameOrigin(ctx)) return message(ctx, 403, 'Not allowed', 'This form was sent from another site.');
      const form = await readFormBody(ctx, FORM_LIMIT_BYTES);
      const opened = await openPortalLink(deps, form?.get('token') ?? '', requestMeta(ctx));
      if ('refused' in opened) {
        const [status, title, text] = REFUSALS[opened.refused];
        return message(ctx, status, title, text);
      }
      ctx.cookies.set(COOKIE, opened.cookie, { httpOnly: true, sameSite: 'strict', secure: ctx.secure, path: '/portal', overwrite: true });
      ctx.status = 303;
      ctx.redirect(`/portal/${opened.session.intent}`);
      return;
    }

    const found = await portalSessionOf(deps, ctx.cookies.get(COOKIE));
    if (found && 'ended' in found) return message(ctx, 401, 'Your session has ended', SESSION_ENDS[found.ended]);
    if (!found) return message(ctx, 401, 'No portal session', 'This page is opened from a portal link.');
    const { session, tenant } = found;
    const scope = scopeOf(ctx, session, tenant);

    if (ctx.method === 'POST') {
      if (!sameOrigin(ctx)) return message(ctx, 403, 'Not allowed', 'This form was sent from another site.');
      const form = await readFormBody(ctx, FORM_LIMIT_BYTES);
      if (!form || !csrfTokenMatches(session.csrfToken, form.get('_csrf'))) return message(ctx, 403, 'The form has expired', 'Reload the page and send the form again.');
      if (path === '/portal/sign-out') {
        await deps.stores.portal.endSession(session.id);
        ctx.cookies.set(COOKIE, '', { httpOnly: true, sameSite: 'strict', secure: ctx.secure, path: '/portal', maxAge: 0, overwrite: true });
        return message(ctx, 200, 'Signed out', 'You are signed out of the admin portal.');
      }
      const [, , intent, action] = path.split('/');
      // Only the session's intent answers, whatever a URL names: another intent's page is one that does not exist.
      const page = intent === session.intent ? PAGES[session.intent] : undefined;
      const run = action && page ? page.actions[action] : undefined;
      if (!page || !run || path.split('/').length !== 4) return message(ctx, 404, 'Not found', 'This page is not part of your portal session.');
      const result = await run(scope, form);
      if ('done' in result) {
        ctx.status = 303;
        ctx.redirect(`/portal/${session.intent}?done=${encodeURIComponent(result.done)}`);
        return;
      }
      if ('errors' in result) return render(ctx, page, scope, { errors: result.errors, values: result.values, query: new URLSearchParams() }, 400);
      ctx.status = 200;
      ctx.type = 'text/html; charset=utf-8';
      ctx.body = portalPage({ title: page.title, tenantName: scope.tenant.name, notice: result.notice, session: { csrf: scope.csrf, returnUrl: session.returnUrl }, body: result.body });
      return;
    }
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return message(ctx, 405, 'Not allowed', 'This page answers GET and its forms POST.');
    const [, , intent, download, ...rest] = path.split('/');
    if (intent !== session.intent || !isPortalIntent(intent) || rest.length > 0) return message(ctx, 404, 'Not found', 'This page is not part of your portal session.');
    const page = PAGES[intent];
    const query = new URLSearchParams(ctx.querystring);
    if (download) {
      const file = page.downloads?.[download];
      if (!file) return message(ctx, 404, 'Not found', 'This page is not part of your portal session.');
      const { contentType, filename, body } = await file(scope, query);
      ctx.type = contentType;
      ctx.set('Content-Disposition', `attachment; filename="${filename}"`);
      ctx.body = body;
      return;
    }
    const done = query.get('done');
    return render(ctx, page, scope, { query, ...(done && page.notices[done] ? { notice: page.notices[done] } : {}) });
  };

  return async (ctx, next) => {
    if (!ctx.path.startsWith(PORTAL_PATH_PREFIX) && ctx.path !== '/portal') return next();
    setPortalHeaders(ctx);
    try {
      await handle(ctx);
    } catch (error) {
      const response = errorResponse(error);
      if (!response.expose) ctx.state.log?.error({ err: error }, 'portal request failed');
      message(ctx, response.status >= 500 ? response.status : 400, 'Something went wrong', response.expose ? (response.body.message ?? 'The request failed.') : 'The request failed; try again in a moment.');
    }
  };
}
