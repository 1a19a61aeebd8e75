/**
 * A client's file name as a display name only: it never becomes a path (storage keys are random
 * ids). Control characters (NUL included) go, path separators become `_` so `../../etc/passwd`
 * reads `.._.._etc_passwd`, and the result is cut to 255 characters; nothing left: `file`.
 */
export function displayName(name: string | undefined): string {
  const cleaned = [...(name ?? '')]
    .filter((char) => !/[\u0000-\u001f\u007f-\u009f]/.test(char))
    .join('')
    .replace(/[/\\]/g, '_')
    .trim();
  const cut = [...cleaned].slice(0, 255).join('');
  return cut === '' || cut === '.' || cut === '..' ? 'file' : cut;
}

/** `Content-Disposition: attachment` with an ASCII fallback name and the UTF-8 one (RFC 6266, RFC 8187 `filename*`). */
export function attachmentDisposition(name: string): string {
  const safe = displayName(name);
  const ascii = safe.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  const encoded = encodeURIComponent(safe).replace(/['()*]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}
