import { csrfField } from './portalForms.ts';
import { html, type SafeHtml } from './portalHtml.ts';

/** The portal's stylesheet's path: served by the portal itself (no third-party asset, nothing inline for the CSP). */
export const PORTAL_STYLESHEET = '/portal/assets/portal.css';

/**
 * A whole portal page: its title, the tenant it is for, the way back (the link's return URL) and out (sign out), a
 * notice announced to screen readers, and the page's own content in `main`.
 */
export function portalPage(options: {
  title: string;
  tenantName?: string;
  notice?: string;
  session?: { csrf: string; returnUrl: string | null };
  body: SafeHtml;
}): string {
  const { session } = options;
  return `<!doctype html>\n${html`<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${options.title}${options.tenantName ? ` · ${options.tenantName}` : ''} · Admin portal</title>
<link rel="stylesheet" href="${PORTAL_STYLESHEET}">
</head>
<body>
<header class="top">
  <p class="brand">Admin portal${options.tenantName ? html` <span class="tenant">for ${options.tenantName}</span>` : ''}</p>
  ${session ? html`<nav aria-label="Session">
    ${session.returnUrl ? html`<a href="${session.returnUrl}">Done, back to the application</a>` : ''}
    <form method="post" action="/portal/sign-out" class="inline">${csrfField(session.csrf)}<button type="submit">Sign out</button></form>
  </nav>` : ''}
</header>
<main id="main">
<h1>${options.title}</h1>
${options.notice ? html`<div class="notice" role="status">${options.notice}</div>` : ''}
${options.body}
</main>
</body>
</html>
`.text}`;
}
