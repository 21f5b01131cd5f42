import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { Webhook } from 'standardwebhooks';

/** One POST as the receiver took it, and which of the secrets it trusted then verified it (the standardwebhooks library). */
export interface WebhookDelivery {
  webhookId: string;
  signatures: string[];
  contentType: string;
  body: string;
  event: Record<string, unknown> & { id: string; sequence: string; type: string };
  verifiedBy: string[];
}

/**
 * A product's webhook receiver on loopback: verifies each delivery as it arrives with the secrets it was told to
 * trust, records it, refuses the next `refuse` ones with 503, and can go down and come back on its port.
 */
export async function startWebhookReceiver() {
  const deliveries: WebhookDelivery[] = [];
  let trusted: string[] = [];
  let refuse = 0;
  let refused = 0;
  const handle = (req: IncomingMessage, res: ServerResponse) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      if (refuse > 0) {
        refuse -= 1;
        refused += 1;
        res.writeHead(503).end();
        return;
      }
      const headers = { 'webhook-id': String(req.headers['webhook-id']), 'webhook-timestamp': String(req.headers['webhook-timestamp']), 'webhook-signature': String(req.headers['webhook-signature']) };
      const verifiedBy = trusted.filter((secret) => {
        try {
          new Webhook(secret).verify(body, headers);
          return true;
        } catch {
          return false;
        }
      });
      deliveries.push({
        webhookId: headers['webhook-id'],
        signatures: headers['webhook-signature'].split(' '),
        contentType: String(req.headers['content-type']),
        body,
        event: JSON.parse(body),
        verifiedBy,
      });
      res.writeHead(204).end();
    });
  };
  let server: Server = createServer(handle);
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const port = (server.address() as { port: number }).port;
  const close = () =>
    new Promise<void>((done) => {
      server.closeAllConnections();
      server.close(() => done());
    });
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    deliveries,
    trust(...secrets: string[]) {
      trusted = secrets;
    },
    refuseNext(n: number) {
      refuse = n;
    },
    get refused() {
      return refused;
    },
    down: close,
    async up() {
      server = createServer(handle);
      await new Promise<void>((done) => server.listen(port, '127.0.0.1', done));
    },
    close,
  };
}

export type WebhookReceiver = Awaited<ReturnType<typeof startWebhookReceiver>>;

/** The first arrival of each event, in arrival order: at least once allows repeats, never a gap or a reordering. */
export function firstArrivals(deliveries: readonly WebhookDelivery[]): WebhookDelivery[] {
  const seen = new Set<string>();
  return deliveries.filter((d) => !seen.has(d.webhookId) && seen.add(d.webhookId));
}
