import { createServer } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetch } from 'undici';
import { agentPinnedTo } from '../../platform/pinnedAgent.ts';

let server: ReturnType<typeof createServer>;
let port: number;
const seen: { host: string | undefined }[] = [];
beforeAll(async () => {
  server = createServer((req, res) => {
    seen.push({ host: req.headers.host });
    res.writeHead(204).end();
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  port = (server.address() as { port: number }).port;
});
afterAll(() => new Promise<void>((done) => server.close(() => done())));

describe('agentPinnedTo', () => {
  it('connects to the given address whatever the name resolves to, and still speaks to the name (Host)', async () => {
    const agent = agentPinnedTo(['127.0.0.1']);
    try {
      // .invalid never resolves (RFC 6761): only the pinned address can have answered.
      const response = await fetch(`http://siem.invalid:${port}/in`, { method: 'POST', body: '{}', dispatcher: agent });
      expect(response.status).toBe(204);
      expect(seen.at(-1)).toEqual({ host: `siem.invalid:${port}` });
    } finally {
      await agent.destroy();
    }
  });
});
