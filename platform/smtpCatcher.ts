/**
 * An SMTP catcher on loopback for the development Keycloak: accepts every message and writes it, as received, to a
 * folder (one .eml file per message) instead of delivering it. Built on Nodemailer's smtp-server (a devDependency:
 * only `npm run keycloak` and the Keycloak tests use this, never the service).
 */
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { SMTPServer } from 'smtp-server';

export type SmtpCatcher = {
  host: string;
  port: number;
  /** Folder of the captured messages; names sort in arrival order. */
  dir: string;
  close(): Promise<void>;
};

/** Largest message kept (Keycloak's invite e-mails are a few KiB). */
const MAX_MESSAGE_BYTES = 5 * 1024 * 1024;

export async function startSmtpCatcher(options: { dir: string; port?: number }): Promise<SmtpCatcher> {
  await mkdir(options.dir, { recursive: true });
  let sequence = 0;
  const server = new SMTPServer({
    // Plain SMTP on loopback: no TLS (no certificate to trust) and no authentication to configure in the realm.
    disabledCommands: ['STARTTLS', 'AUTH'],
    authOptional: true,
    size: MAX_MESSAGE_BYTES,
    logger: false,
    onData(stream, session, callback) {
      readAll(stream).then(
        async (message) => {
          const name = `${Date.now().toString().padStart(15, '0')}-${String(++sequence).padStart(6, '0')}-${session.id}`;
          const recipients = session.envelope.rcptTo.map((rcpt) => rcpt.address).join(', ');
          // The envelope recipients go first, as a delivery agent would add them; the rest is the message as sent.
          const file = Buffer.concat([Buffer.from(`X-Envelope-To: ${recipients}\r\n`), message]);
          // Written under a temporary name and renamed, so a reader never sees half a message.
          const path = join(options.dir, `${name}.eml`);
          await writeFile(`${path}.part`, file);
          await rename(`${path}.part`, path);
          callback();
        },
        (err: Error) => callback(err),
      );
    },
  });
  const port = await new Promise<number>((resolvePort, reject) => {
    server.on('error', reject);
    const listener = server.listen(options.port ?? 0, '127.0.0.1', () => resolvePort((listener.address() as { port: number }).port));
  });
  return {
    host: '127.0.0.1',
    port,
    dir: options.dir,
    close: () => new Promise<void>((resolveClose) => server.close(() => resolveClose())),
  };
}

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
