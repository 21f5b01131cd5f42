import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import PostalMime from 'postal-mime';
import { keycloakContext } from './keycloakContext.ts';

export type CapturedMail = { file: string; to: string[]; subject: string; text: string; html: string };

/**
 * The e-mails the SMTP catcher received for `to`, oldest first, decoded (MIME parts, transfer encodings) the way a
 * mail client would, so a test reads the link a person would click.
 */
export async function capturedMail(to: string): Promise<CapturedMail[]> {
  const { mailDir } = keycloakContext();
  const files = (await readdir(mailDir)).filter((name) => name.endsWith('.eml')).sort();
  const mails: CapturedMail[] = [];
  for (const file of files) {
    const email = await PostalMime.parse(await readFile(join(mailDir, file)));
    const recipients = (email.to ?? []).flatMap((address) => ('address' in address && address.address ? [address.address.toLowerCase()] : []));
    if (!recipients.includes(to.toLowerCase())) continue;
    mails.push({ file, to: recipients, subject: email.subject ?? '', text: email.text ?? '', html: email.html ?? '' });
  }
  return mails;
}

/** Keycloak action-token links in a mail's text part. */
export function actionLinks(mail: CapturedMail): string[] {
  return [...mail.text.matchAll(/https?:\/\/\S+\/login-actions\/action-token\?key=[\w.-]+/g)].map((match) => match[0]);
}
