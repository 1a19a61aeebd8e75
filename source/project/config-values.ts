// Small readers shared by the blocks of `.workbench.kdl`.

/** An absolute http:// or https:// URL with a host. */
export function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

/** A value as an error message quotes it: strings in quotes, anything else bare. */
export function show(value: unknown): string {
  return typeof value === 'string' ? JSON.stringify(value) : String(value);
}
