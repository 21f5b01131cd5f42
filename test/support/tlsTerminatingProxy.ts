import { createServer } from 'node:tls';
import { startTcpProxy } from './tcpProxy.ts';

/**
 * Temporal behind TLS: a loopback server that speaks TLS (HTTP/2 by ALPN) and demands a client certificate signed by
 * `ca`, then passes the bytes on to a plaintext server (the test Temporal, which takes HTTP/2 without TLS). What
 * mutual TLS to Temporal needs of the service, without a Temporal of its own that speaks TLS. The TCP proxy's
 * plumbing, behind a TLS listener.
 */
export async function startTlsTerminatingProxy(target: { host: string; port: number }, tls: { key: string; cert: string; ca: string }) {
  const proxy = await startTcpProxy(target, (onClient) => createServer({ ...tls, requestCert: true, rejectUnauthorized: true, ALPNProtocols: ['h2'] }, onClient));
  return { address: proxy.address, close: proxy.close };
}
