/**
 * The demo app `npm run keycloak` serves on loopback: a static page (keycloak/demo-app/) that signs a person in to
 * the realm's public client tenant-registry-demo-app with the authorization code flow and PKCE, and shows the claims
 * of the tokens it gets. The server adds one thing to the static files: /token, forwarded to the realm's token
 * endpoint, so the page's code exchange and refresh are same-origin on whatever port it runs (Keycloak's web
 * origins name exact ports; its redirect URIs take any loopback port).
 */
import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { resolve } from 'node:path';
import { DEMO_APP_CLIENT_ID } from './keycloakServer.ts';

export type RunningDemoApp = {
  /** e.g. http://127.0.0.1:8181/ (what IDP_INVITE_REDIRECT_URI takes). */
  url: string;
  close(): Promise<void>;
};

const PAGE_DIR = resolve(import.meta.dirname, '..', 'keycloak', 'demo-app');
const FILES: Record<string, { file: string; type: string }> = {
  '/': { file: 'index.html', type: 'text/html; charset=utf-8' },
  '/app.js': { file: 'app.js', type: 'text/javascript; charset=utf-8' },
  '/app.css': { file: 'app.css', type: 'text/css; charset=utf-8' },
};
/** A token request is a few hundred bytes; anything much larger is not one. */
const MAX_TOKEN_REQUEST_BYTES = 16 * 1024;
const HEADERS = {
  'cache-control': 'no-store',
  // The page's own files and Keycloak's answers through /token only; the URL carries a code: never sent on.
  'content-security-policy': "default-src 'self'; script-src 'self'; style-src 'self'; frame-ancestors 'none'",
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
};

/** `clientId`: the realm's public PKCE client the page signs in to (default the demo app's; the realm has a second). */
export async function startDemoApp(options: { realmUrl: string; port?: number; host?: string; clientId?: string }): Promise<RunningDemoApp> {
  const host = options.host ?? '127.0.0.1';
  const pages = new Map<string, { body: Buffer; type: string }>();
  for (const [path, { file, type }] of Object.entries(FILES)) pages.set(path, { body: await readFile(resolve(PAGE_DIR, file)), type });
  const oidc = `${options.realmUrl}/protocol/openid-connect`;
  const config = JSON.stringify({
    client_id: options.clientId ?? DEMO_APP_CLIENT_ID,
    authorization_endpoint: `${oidc}/auth`,
    end_session_endpoint: `${oidc}/logout`,
  });

  const server = createServer((request, response) => {
    handle(request, response).catch(() => {
      if (!response.headersSent) response.writeHead(502, HEADERS);
      response.end();
    });
  });
  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const path = new URL(request.url ?? '/', 'http://demo').pathname;
    const page = pages.get(path);
    if (request.method === 'GET' && page) {
      response.writeHead(200, { ...HEADERS, 'content-type': page.type }).end(page.body);
    } else if (request.method === 'GET' && path === '/config.json') {
      response.writeHead(200, { ...HEADERS, 'content-type': 'application/json' }).end(config);
    } else if (request.method === 'POST' && path === '/token') {
      const body = await readBody(request);
      if (body === undefined) {
        response.writeHead(413, HEADERS).end();
        return;
      }
      const answer = await fetch(`${oidc}/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body,
        signal: AbortSignal.timeout(15_000),
      });
      response.writeHead(answer.status, { ...HEADERS, 'content-type': answer.headers.get('content-type') ?? 'application/json' });
      response.end(Buffer.from(await answer.arrayBuffer()));
    } else {
      response.writeHead(404, HEADERS).end();
    }
  }

  await new Promise<void>((resolveListen, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolveListen());
  });
  const { port } = server.address() as { port: number };
  return {
    url: `http://${host}:${port}/`,
    close: () =>
      new Promise<void>((resolveClose) => {
        server.closeAllConnections();
        server.close(() => resolveClose());
      }),
  };
}

/** The request body, or undefined when it is larger than a token request can be. */
async function readBody(request: IncomingMessage): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_TOKEN_REQUEST_BYTES) return undefined;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}
