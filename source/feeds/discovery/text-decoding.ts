/** Page text for the link scan: the charset the server names, else UTF-8 (lossy, never throws). */
export function decodePage(body: Buffer, contentType: string | null): string {
  const charset = /charset\s*=\s*"?([\w.:-]+)/i.exec(contentType ?? '')?.[1];
  if (charset) {
    try {
      return new TextDecoder(charset).decode(body);
    } catch {
      // An unknown label: fall through to UTF-8, which keeps ASCII markup readable.
    }
  }
  return new TextDecoder('utf-8').decode(body);
}
