/** A Content-Type header split into what charset sniffing needs. */
export interface ContentType {
  /** Lowercased `type/subtype`, '' when the header is missing or empty. */
  mediaType: string;
  /** Lowercased charset parameter without quotes; undefined when absent or malformed. */
  charset?: string;
}

/** Parses `text/xml; charset="utf-8"` leniently: quotes of either kind, spaces around `=`. */
export function parseContentType(header: string | null | undefined): ContentType {
  if (!header) return {mediaType: ''};
  const parts = header.split(';');
  const mediaType = parts[0].trim().toLowerCase();
  for (let i = 1; i < parts.length; i++) {
    const eq = parts[i].indexOf('=');
    if (eq === -1) continue;
    if (parts[i].slice(0, eq).trim().toLowerCase() !== 'charset') continue;
    const value = parts[i]
      .slice(eq + 1)
      .trim()
      .replace(/^["']|["']$/g, '')
      .trim()
      .toLowerCase();
    if (value) return {mediaType, charset: value};
  }
  return {mediaType};
}

/**
 * RFC 3023: a text/*xml type without a charset is US-ASCII whatever the XML declaration says
 * (feedparser follows it; so do we, as long as the bytes really are ASCII).
 */
export function isTextXml(mediaType: string): boolean {
  return mediaType.startsWith('text/') && (mediaType === 'text/xml' || mediaType.endsWith('+xml') || mediaType === 'text/xml-external-parsed-entity');
}
