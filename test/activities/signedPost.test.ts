import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { signedPost } from '../../activities/signedPost.ts';
import { agentPinnedTo } from '../../platform/pinnedAgent.ts';

const servers: Server[] = [];
afterAll(() => Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve)))));

async function listen(handler: Parameters<typeof createServer>[1]): Promise<string> {
  const server = createServer(handler);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('a signed delivery', () => {
  it('follows no redirect: a 307 to another host is a failure, and that host is never asked', async () => {
    let elsewhereAsked = 0;
    const elsewhere = await listen((_req, res) => {
      elsewhereAsked++;
      res.end();
    });
    const receiver = await listen((_req, res) => {
      res.writeHead(307, { location: `${elsewhere}/steal` });
      res.end();
    });
    const agent = agentPinnedTo(['127.0.0.1']);
    await expect(signedPost({ url: `${receiver}/hook?x=1`, agent, body: '{}', headers: { 'content-type': 'application/json' }, timeoutMs: 5_000, what: 'sequence 1' })).rejects.toThrow(
      'the receiver answered 307 to sequence 1',
    );
    expect(elsewhereAsked).toBe(0);
    await agent.destroy();
  });

  it('POSTs the body and headers as given, to the path and query of the URL', async () => {
    let seen: { method?: string; url?: string; signature?: string; body: string } = { body: '' };
    const receiver = await listen((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        seen = { method: req.method, url: req.url, signature: req.headers['webhook-signature'] as string, body };
        res.writeHead(204).end();
      });
    });
    const agent = agentPinnedTo(['127.0.0.1']);
    await signedPost({ url: `${receiver}/hook?x=1`, agent, body: '{"a":1}', headers: { 'webhook-signature': 'v1,abc' }, timeoutMs: 5_000, what: 'sequence 2' });
    expect(seen).toEqual({ method: 'POST', url: '/hook?x=1', signature: 'v1,abc', body: '{"a":1}' });
    await agent.destroy();
  });
});
