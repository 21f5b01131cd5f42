/**
 * A loopback HTTP peer speaking the part of Keycloak 26's HTTP surface the Keycloak adapter uses: the
 * client-credentials token endpoint, organizations (with attribute search), users, realm roles and role mappings,
 * organization members, server info, and the project's tenant-registry invite extension. State lives in memory.
 * It records every request and can be told to misbehave (a status for the next calls, hanging, short-lived
 * tokens, a rotated secret). The real Keycloak is exercised by the integration suite, not here.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type FakeTarget = 'token' | 'admin';
/** Answer with this status (and body), or never answer at all. */
export type FakeFault = { status: number; body?: unknown } | { hang: true };

export type RecordedRequest = {
  target: FakeTarget;
  method: string;
  path: string;
  query: URLSearchParams;
  body: string;
  /** The bearer token an admin call carried. */
  token?: string;
  /** The status answered; undefined while (or because) the request hangs. */
  status?: number;
};

export type FakeOrganization = {
  id: string;
  name: string;
  alias: string;
  enabled: boolean;
  attributes: Record<string, string[]>;
  domains: { name: string; verified: boolean }[];
};

export type FakeUser = {
  id: string;
  username: string;
  email?: string;
  firstName?: string;
  lastName?: string;
  enabled: boolean;
  emailVerified: boolean;
  requiredActions: string[];
  attributes: Record<string, string[]>;
  realmRoles: Set<string>;
  createdTimestamp: number;
};

export type FakeInvite = {
  user_id: string;
  actions: string[];
  lifespan: number;
  client_id?: string;
  redirect_uri?: string;
  link: string;
};

export type FakeKeycloak = {
  /** Base URL, the value of IDP_ADMIN_URL. */
  readonly url: string;
  readonly realm: string;
  readonly clientId: string;
  readonly requests: RecordedRequest[];
  readonly organizations: Map<string, FakeOrganization>;
  readonly users: Map<string, FakeUser>;
  /** organization id → member user ids */
  readonly members: Map<string, Set<string>>;
  readonly roles: Map<string, { id: string; name: string }>;
  readonly invites: FakeInvite[];
  /** The secret the token endpoint currently accepts. */
  secret: string;
  /** expires_in of tokens issued from now on; the fake also refuses them after that long. */
  tokenLifetimeSeconds: number;
  /** Whether the tenant-registry invite extension is deployed (404 otherwise, as Keycloak answers unknown paths). */
  inviteExtensionInstalled: boolean;
  tokenRequestCount(): number;
  /** Admin requests (including the invite extension), optionally only those with this method and path ending. */
  adminRequests(method?: string, pathSuffix?: string): RecordedRequest[];
  /** The next requests to `target` get these faults, one each, before any other check (a valid token included). */
  failNext(target: FakeTarget, ...faults: FakeFault[]): void;
  /** Every request to `target` gets this fault until cleared with undefined. */
  setFault(target: FakeTarget, fault: FakeFault | undefined): void;
  /** Makes every token issued so far invalid. */
  revokeTokens(): void;
  /** Called after each GET of a user is answered: a test changes the user there to stand in for a concurrent edit. */
  afterUserRead: ((user: FakeUser) => void) | undefined;
  addUser(user: Partial<FakeUser> & { username: string }): FakeUser;
  addOrganization(organization: Partial<FakeOrganization> & { name: string }): FakeOrganization;
  close(): Promise<void>;
};

export type FakeKeycloakOptions = { realm?: string; clientId?: string; secret?: string; roles?: string[] };

export async function startFakeKeycloak(options: FakeKeycloakOptions = {}): Promise<FakeKeycloak> {
  const realm = options.realm ?? 'tenants';
  const clientId = options.clientId ?? 'tenant-registry-admin';
  const tokens = new Map<string, number>();
  const queued: Record<FakeTarget, FakeFault[]> = { token: [], admin: [] };
  const standing: Partial<Record<FakeTarget, FakeFault>> = {};

  const server = createServer((req, res) => void handle(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const fake: FakeKeycloak = {
    url,
    realm,
    clientId,
    requests: [],
    organizations: new Map(),
    users: new Map(),
    members: new Map(),
    roles: new Map((options.roles ?? ['IT_ADMIN']).map((name) => [name, { id: randomUUID(), name }])),
    invites: [],
    secret: options.secret ?? 'fake-secret',
    tokenLifetimeSeconds: 300,
    inviteExtensionInstalled: true,
    tokenRequestCount: () => fake.requests.filter((r) => r.target === 'token').length,
    adminRequests: (method, pathSuffix) =>
      fake.requests.filter(
        (r) => r.target === 'admin' && (!method || r.method === method) && (!pathSuffix || r.path.endsWith(pathSuffix)),
      ),
    failNext(target, ...faults) {
      queued[target].push(...faults);
    },
    setFault(target, fault) {
      standing[target] = fault;
    },
    afterUserRead: undefined,
    revokeTokens() {
      tokens.clear();
    },
    addUser(partial) {
      const user: FakeUser = {
        id: randomUUID(),
        enabled: true,
        emailVerified: false,
        requiredActions: [],
        attributes: {},
        realmRoles: new Set(),
        createdTimestamp: Date.now(),
        ...(withoutUndefined(partial) as Partial<FakeUser>),
        username: partial.username.toLowerCase(),
        email: partial.email?.toLowerCase(),
      };
      fake.users.set(user.id, user);
      return user;
    },
    addOrganization(partial) {
      const organization: FakeOrganization = {
        id: randomUUID(),
        alias: partial.name,
        enabled: true,
        attributes: {},
        domains: [],
        ...partial,
      };
      fake.organizations.set(organization.id, organization);
      fake.members.set(organization.id, new Set());
      return organization;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve, reject) => server.close((err) => (err ? reject(err) : resolve())));
    },
  };

  const tokenPath = `/realms/${realm}/protocol/openid-connect/token`;
  const adminPrefix = `/admin/realms/${realm}`;
  const invitePath = `/realms/${realm}/tenant-registry/invite`;

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const requestUrl = new URL(req.url ?? '/', url);
    const body = await readBody(req);
    // The admin client asks for collections with a trailing slash (/users/), which Keycloak matches like /users.
    const path = requestUrl.pathname.replace(/(.)\/+$/, '$1');
    const target: FakeTarget = path === tokenPath ? 'token' : 'admin';
    const record: RecordedRequest = { target, method: req.method ?? 'GET', path, query: requestUrl.searchParams, body };
    fake.requests.push(record);
    const send = (status: number, payload?: unknown, headers: Record<string, string> = {}) => {
      record.status = status;
      const text = payload === undefined ? '' : JSON.stringify(payload);
      res.writeHead(status, { ...(text ? { 'content-type': 'application/json' } : {}), ...headers }).end(text);
    };

    const fault = queued[target].shift() ?? standing[target];
    if (fault && 'hang' in fault) return; // never answered; close() drops the socket
    if (fault) return send(fault.status, fault.body ?? { error: 'injected fault' });

    if (target === 'token') return issueToken(req, body, send);

    const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    record.token = bearer;
    const expiresAt = bearer ? tokens.get(bearer) : undefined;
    if (expiresAt === undefined || expiresAt <= Date.now()) return send(401, { error: 'HTTP 401 Unauthorized' });

    try {
      if (path === invitePath && req.method === 'POST') return invite(body, send);
      if (path === '/admin/serverinfo' && req.method === 'GET') return send(200, { systemInfo: { version: '26-fake' } });
      if (path.startsWith(`${adminPrefix}/`)) return admin(req.method ?? 'GET', path.slice(adminPrefix.length), requestUrl.searchParams, body, send);
      send(404, { error: 'Not Found' });
    } catch (err) {
      // A malformed body from the adapter under test: Keycloak would answer 400, and the test should see it.
      send(400, { error: 'invalid_request', error_description: String(err) });
    }
  }

  type Send = (status: number, payload?: unknown, headers?: Record<string, string>) => void;

  function issueToken(req: IncomingMessage, body: string, send: Send): void {
    const form = new URLSearchParams(body);
    let id = form.get('client_id');
    let secret = form.get('client_secret');
    const basic = /^Basic (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    if (basic) {
      const decoded = Buffer.from(basic, 'base64').toString('utf8');
      const colon = decoded.indexOf(':');
      const decode = (part: string) => new URLSearchParams(`v=${part}`).get('v') ?? '';
      id = decode(decoded.slice(0, colon));
      secret = decode(decoded.slice(colon + 1));
    }
    if (form.get('grant_type') !== 'client_credentials') return send(400, { error: 'unsupported_grant_type' });
    if (id !== clientId || secret !== fake.secret) {
      return send(401, { error: 'unauthorized_client', error_description: 'Invalid client or Invalid client credentials' });
    }
    const token = `fake-token-${randomUUID()}`;
    tokens.set(token, Date.now() + fake.tokenLifetimeSeconds * 1000);
    send(200, { access_token: token, expires_in: fake.tokenLifetimeSeconds, token_type: 'Bearer', scope: 'profile email' });
  }

  function invite(body: string, send: Send): void {
    if (!fake.inviteExtensionInstalled) return send(404, { error: 'Not Found' });
    const request = JSON.parse(body) as Omit<FakeInvite, 'link'>;
    if (!fake.users.has(request.user_id)) return send(400, { error: 'invalid_request', error_description: 'user not found' });
    if (!Array.isArray(request.actions) || request.actions.length === 0 || !(request.lifespan > 0)) {
      return send(400, { error: 'invalid_request' });
    }
    const link = `${url}/realms/${realm}/login-actions/action-token?key=${randomUUID()}`;
    fake.invites.push({ ...request, link });
    send(200, { link });
  }

  function admin(method: string, path: string, query: URLSearchParams, body: string, send: Send): void {
    let match: RegExpExecArray | null;
    const route = (pattern: RegExp, verb: string) => method === verb && (match = pattern.exec(path)) !== null;
    const param = (index: number) => decodeURIComponent(match?.[index] ?? '');
    const page = <T>(items: T[], defaultMax: number) => {
      const first = Number(query.get('first') ?? 0);
      return items.slice(first, first + Number(query.get('max') ?? defaultMax));
    };
    const brief = query.get('briefRepresentation') !== 'false';

    if (route(/^\/organizations$/, 'GET')) {
      const q = query.get('q');
      const search = query.get('search')?.toLowerCase();
      const exact = query.get('exact') === 'true';
      const found = [...fake.organizations.values()].filter((org) => {
        if (q) return parseSearchQuery(q).every(([key, value]) => org.attributes[key]?.includes(value));
        if (!search) return true;
        const names = [org.name.toLowerCase(), ...org.domains.map((d) => d.name)];
        return names.some((name) => (exact ? name === search : name.includes(search)));
      });
      return send(200, page(found, 10).map((org) => organizationRepresentation(org, brief)));
    }
    if (route(/^\/organizations$/, 'POST')) {
      const rep = JSON.parse(body) as Partial<FakeOrganization>;
      if (!rep.name) return send(400, { errorMessage: 'Name cannot be empty' });
      const alias = rep.alias || rep.name;
      const domains = rep.domains ?? [];
      // As Keycloak 26.0 to 26.3 do (domains became optional in 26.4).
      if (domains.length === 0) return send(400, { errorMessage: 'You must provide at least one domain' });
      const others = [...fake.organizations.values()];
      if (others.some((org) => org.name === rep.name)) return send(409, { errorMessage: 'A organization with the same name already exists.' });
      if (others.some((org) => org.alias === alias)) return send(409, { errorMessage: 'A organization with the same alias already exists' });
      if (others.some((org) => org.domains.some((d) => domains.some((n) => n.name === d.name)))) {
        return send(409, { errorMessage: 'Domain already linked to another organization' });
      }
      const org = fake.addOrganization({ name: rep.name, alias, enabled: rep.enabled ?? true, attributes: rep.attributes ?? {}, domains });
      return send(201, undefined, { location: `${url}${adminPrefix}/organizations/${org.id}` });
    }
    if (route(/^\/organizations\/members\/([^/]+)\/organizations$/, 'GET')) {
      const userId = param(1);
      if (!fake.users.has(userId)) return send(404, { error: 'HTTP 404 Not Found' });
      const orgs = [...fake.members.entries()].filter(([, ids]) => ids.has(userId)).map(([orgId]) => fake.organizations.get(orgId)!);
      return send(200, orgs.map((org) => organizationRepresentation(org, brief)));
    }
    if (route(/^\/organizations\/([^/]+)$/, 'GET')) {
      const org = fake.organizations.get(param(1));
      return org ? send(200, organizationRepresentation(org, false)) : send(404, { errorMessage: 'Organization not found.' });
    }
    if (route(/^\/organizations\/([^/]+)\/members$/, 'GET')) {
      const ids = fake.members.get(param(1));
      if (!ids) return send(404, { errorMessage: 'Organization not found.' });
      const members = [...ids].map((id) => ({ ...userRepresentation(fake.users.get(id)!), membershipType: 'UNMANAGED' }));
      return send(200, page(members, 10));
    }
    if (route(/^\/organizations\/([^/]+)\/members$/, 'POST')) {
      const ids = fake.members.get(param(1));
      if (!ids) return send(404, { errorMessage: 'Organization not found.' });
      // Keycloak trims the body and strips surrounding quotes: the bare id and a JSON string both work.
      const userId = body.trim().replace(/^"|"$/g, '');
      if (!fake.users.has(userId)) return send(400, { errorMessage: 'User does not exist' });
      if (ids.has(userId)) return send(409, { errorMessage: 'User is already a member of the organization.' });
      ids.add(userId);
      return send(201, undefined, { location: `${url}${adminPrefix}/organizations/${param(1)}/members/${userId}` });
    }
    if (route(/^\/organizations\/([^/]+)\/members\/([^/]+)$/, 'DELETE')) {
      // As Keycloak: 404 for an organization or user it does not have, or a user that is not a member.
      const ids = fake.members.get(param(1));
      if (!ids) return send(404, { errorMessage: 'Organization not found.' });
      if (!ids.delete(param(2))) return send(404, { errorMessage: 'Not a member of the organization' });
      return send(204);
    }
    if (route(/^\/users$/, 'GET')) {
      const exact = query.get('exact') === 'true';
      const matches = (actual: string | undefined, wanted: string | null) =>
        wanted === null || (actual !== undefined && (exact ? actual === wanted.toLowerCase() : actual.includes(wanted.toLowerCase())));
      const found = [...fake.users.values()].filter(
        (user) => matches(user.email, query.get('email')) && matches(user.username, query.get('username')),
      );
      return send(200, page(found, 100).map(userRepresentation));
    }
    if (route(/^\/users$/, 'POST')) {
      const rep = JSON.parse(body) as Partial<FakeUser>;
      if (!rep.username) return send(400, { errorMessage: 'User name is missing' });
      const users = [...fake.users.values()];
      if (users.some((user) => user.username === rep.username!.toLowerCase())) return send(409, { errorMessage: 'User exists with same username' });
      if (rep.email && users.some((user) => user.email === rep.email!.toLowerCase())) return send(409, { errorMessage: 'User exists with same email' });
      const { realmRoles: _ignored, ...fields } = rep;
      const user = fake.addUser({ ...fields, username: rep.username });
      return send(201, undefined, { location: `${url}${adminPrefix}/users/${user.id}` });
    }
    if (route(/^\/users\/([^/]+)$/, 'GET')) {
      const user = fake.users.get(param(1));
      if (!user) return send(404, { error: 'User not found' });
      const answered = send(200, userRepresentation(user));
      fake.afterUserRead?.(user);
      return answered;
    }
    if (route(/^\/users\/([^/]+)$/, 'PUT')) {
      const user = fake.users.get(param(1));
      if (!user) return send(404, { error: 'User not found' });
      const rep = JSON.parse(body) as Partial<FakeUser>;
      for (const key of ['email', 'firstName', 'lastName', 'enabled', 'emailVerified', 'requiredActions'] as const) {
        if (rep[key] !== undefined) Object.assign(user, { [key]: rep[key] });
      }
      // Keycloak replaces the attribute map wholesale: attributes missing from the representation are removed.
      if (rep.attributes) user.attributes = rep.attributes;
      return send(204);
    }
    if (route(/^\/users\/([^/]+)\/role-mappings\/realm$/, 'GET')) {
      const user = fake.users.get(param(1));
      return user ? send(200, [...user.realmRoles].map((name) => fake.roles.get(name))) : send(404, { error: 'User not found' });
    }
    if (route(/^\/users\/([^/]+)\/role-mappings\/realm$/, 'POST')) {
      const user = fake.users.get(param(1));
      if (!user) return send(404, { error: 'User not found' });
      const wanted = JSON.parse(body) as { name: string }[];
      if (wanted.some((role) => !fake.roles.has(role.name))) return send(404, { error: 'Role not found' });
      for (const role of wanted) user.realmRoles.add(role.name);
      return send(204);
    }
    if (route(/^\/roles\/([^/]+)$/, 'GET')) {
      const role = fake.roles.get(param(1));
      return role ? send(200, { ...role, composite: false, clientRole: false }) : send(404, { error: 'Could not find role' });
    }
    send(404, { error: 'Not Found' });
  }

  return fake;
}

/** Keycloak's `q` format: space-separated key:value pairs. */
function parseSearchQuery(q: string): [string, string][] {
  return q
    .split(' ')
    .filter(Boolean)
    .map((pair) => {
      const colon = pair.indexOf(':');
      return [pair.slice(0, colon), pair.slice(colon + 1)];
    });
}

function organizationRepresentation(org: FakeOrganization, brief: boolean) {
  const { id, name, alias, enabled } = org;
  return brief ? { id, name, alias, enabled } : { id, name, alias, enabled, attributes: org.attributes, domains: org.domains };
}

function userRepresentation(user: FakeUser) {
  const { realmRoles: _roles, ...representation } = user;
  return representation;
}

function withoutUndefined(value: object): object {
  return Object.fromEntries(Object.entries(value).filter(([, entry]) => entry !== undefined));
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}
