/** A real OIDC issuer on loopback: discovery document, JWKS, token minting, key rotation and injectable faults. */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { exportJWK, exportSPKI, generateKeyPair, SignJWT, type CryptoKey, type JWK, type JWTPayload } from 'jose';

export type IssuerEndpoint = 'discovery' | 'jwks';

/** How an endpoint misbehaves: answer after delayMs, and/or with this HTTP status instead of the document. */
export type Fault = { delayMs?: number; status?: number };

export type SignOptions = {
  /** Header alg; picks the issuer's key of that alg unless `key` is given. Default RS256. */
  alg?: string;
  /** Header kid; defaults to the kid of the issuer's key of that alg (also when signing with a foreign key). */
  kid?: string;
  /** Signs with this key instead of the issuer's (a foreign private key, or HMAC secret bytes). */
  key?: CryptoKey | Uint8Array;
};

export type OidcIssuer = {
  /** The issuer identifier, e.g. http://127.0.0.1:PORT/realms/test (Keycloak-style path). */
  readonly issuer: string;
  /** Requests received per endpoint, counted before any fault applies. */
  readonly fetches: Record<IssuerEndpoint, number>;
  /** Mints a JWT; claims override the defaults (iss, aud tenant-registry, sub, iat, exp in 5 min); `undefined` omits one. */
  sign(claims?: JWTPayload, options?: SignOptions): Promise<string>;
  /** Replaces the current RS256 key by a new one (the old one leaves the JWKS); returns the new kid. */
  rotate(): Promise<string>;
  /** The kid currently published for an alg. */
  kid(alg?: string): string;
  /** The public key of an alg as PEM (SPKI), as an attacker would find it. */
  publicKeyPem(alg?: string): Promise<string>;
  setFault(endpoint: IssuerEndpoint, fault: Fault | undefined): void;
  /** Makes discovery advertise another issuer value. */
  advertiseIssuer(issuer: string): void;
  /** Makes discovery advertise these endpoints instead of its own (`undefined` restores the issuer's own). */
  advertiseEndpoints(endpoints: Record<string, string> | undefined): void;
  close(): Promise<void>;
};

type IssuerKey = { kid: string; alg: string; privateKey: CryptoKey; publicKey: CryptoKey; publicJwk: JWK };

const REALM_PATH = '/realms/test';

export async function startOidcIssuer(): Promise<OidcIssuer> {
  let generation = 0;
  const newKey = async (alg: string): Promise<IssuerKey> => {
    const { privateKey, publicKey } = await generateKeyPair(alg);
    const kid = `${alg.toLowerCase()}-${++generation}`;
    return { kid, alg, privateKey, publicKey, publicJwk: { ...(await exportJWK(publicKey)), kid, alg, use: 'sig' } };
  };

  let keys = [await newKey('RS256'), await newKey('ES256')];
  const faults: Partial<Record<IssuerEndpoint, Fault>> = {};
  const fetches: Record<IssuerEndpoint, number> = { discovery: 0, jwks: 0 };
  let advertisedIssuer: string | undefined;
  let advertisedEndpoints: Record<string, string> | undefined;

  const server = createServer((req, res) => void respond(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}${REALM_PATH}`;

  const documents: Record<string, { endpoint: IssuerEndpoint; body: () => unknown }> = {
    [`${REALM_PATH}/.well-known/openid-configuration`]: {
      endpoint: 'discovery',
      body: () => ({
        issuer: advertisedIssuer ?? issuer,
        authorization_endpoint: `${issuer}/protocol/openid-connect/auth`,
        token_endpoint: `${issuer}/protocol/openid-connect/token`,
        jwks_uri: `${issuer}/protocol/openid-connect/certs`,
        id_token_signing_alg_values_supported: keys.map((key) => key.alg),
        ...advertisedEndpoints,
      }),
    },
    [`${REALM_PATH}/protocol/openid-connect/certs`]: {
      endpoint: 'jwks',
      body: () => ({ keys: keys.map((key) => key.publicJwk) }),
    },
  };

  async function respond(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const document = documents[new URL(req.url ?? '/', issuer).pathname];
    if (!document || req.method !== 'GET') {
      res.writeHead(404).end();
      return;
    }
    fetches[document.endpoint] += 1;
    const fault = faults[document.endpoint];
    // Unref'd so a hanging response never keeps the test process alive.
    if (fault?.delayMs) await sleep(fault.delayMs, undefined, { ref: false });
    if (fault?.status) {
      res.writeHead(fault.status, { 'content-type': 'application/json' }).end('{"error":"injected"}');
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(document.body()));
  }

  const keyFor = (alg: string): IssuerKey => {
    const key = keys.find((candidate) => candidate.alg === alg);
    if (!key) throw new Error(`test issuer has no ${alg} key`);
    return key;
  };

  return {
    issuer,
    fetches,
    async sign(claims = {}, options = {}) {
      const alg = options.alg ?? 'RS256';
      const issuerKey = keys.find((key) => key.alg === alg);
      const signingKey = options.key ?? issuerKey?.privateKey;
      if (!signingKey) throw new Error(`test issuer has no ${alg} key: pass options.key`);
      const now = Math.floor(Date.now() / 1000);
      const payload = { iss: issuer, aud: 'tenant-registry', sub: 'service-account-test', iat: now, exp: now + 300, ...claims };
      return new SignJWT(payload).setProtectedHeader({ alg, typ: 'JWT', kid: options.kid ?? issuerKey?.kid }).sign(signingKey);
    },
    async rotate() {
      const next = await newKey('RS256');
      keys = [...keys.filter((key) => key.alg !== 'RS256'), next];
      return next.kid;
    },
    kid: (alg = 'RS256') => keyFor(alg).kid,
    publicKeyPem: (alg = 'RS256') => exportSPKI(keyFor(alg).publicKey),
    setFault(endpoint, fault) {
      faults[endpoint] = fault;
    },
    advertiseIssuer(value) {
      advertisedIssuer = value;
    },
    advertiseEndpoints(endpoints) {
      advertisedEndpoints = endpoints;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve, reject) => server.close((err) => (err ? reject(err) : resolve())));
    },
  };
}
