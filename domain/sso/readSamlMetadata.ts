import { AppError, invalidInput } from '../errors.ts';
import type { RegistryContext } from '../registryContext.ts';
import { parseSamlMetadata } from './samlMetadata.ts';
import type { SamlMetadataSource } from './samlMetadataSource.ts';
import type { SamlIdpMetadata } from './ssoConnectionRecord.ts';

/** What a SAML connection is made of: the metadata given as XML, or read from its URL (which is then kept). */
export type SamlMetadataInput = { metadata_xml: string } | { metadata_url: string };

/**
 * Reads the metadata the caller gave: its XML, or its URL under the issuer address rule with size and time limits
 * (SamlMetadataSource), then parseSamlMetadata. Anything refused is 400 naming the field and why; nothing is made.
 */
export async function readSamlMetadata(
  context: Pick<RegistryContext, 'samlMetadata'>,
  input: SamlMetadataInput,
  now: Date,
): Promise<{ metadata: SamlIdpMetadata; metadataUrl: string | null }> {
  if ('metadata_xml' in input) {
    const parsed = parseSamlMetadata(input.metadata_xml, now);
    if ('refused' in parsed) throw invalidInput(`metadata_xml: ${parsed.refused}`);
    return { metadata: parsed.metadata, metadataUrl: null };
  }
  const fetched = await fetchSamlMetadata(context.samlMetadata, input.metadata_url, now);
  if ('failed' in fetched) throw invalidInput(`metadata_url: ${fetched.failed}`);
  return { metadata: fetched.metadata, metadataUrl: input.metadata_url };
}

/** The metadata at `url`, parsed; or why it could not be had (the reading's failure or the parser's refusal). */
export async function fetchSamlMetadata(source: SamlMetadataSource | undefined, url: string, now: Date): Promise<{ metadata: SamlIdpMetadata } | { failed: string }> {
  if (!source) throw new AppError('unavailable', 'no SAML metadata reader is configured in this process');
  const read = await source(url);
  if ('failed' in read) return { failed: `the metadata could not be read: ${read.failed}` };
  const parsed = parseSamlMetadata(read.text, now);
  return 'refused' in parsed ? { failed: parsed.refused } : parsed;
}
