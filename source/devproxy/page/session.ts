/** The tab's channel session id: kept in sessionStorage so a reload is the same session; frames get their own. */
const KEY = '__workbench_session';

function randomId(): string {
  const bytes = new Uint8Array(12);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

export function sessionId(): string {
  let id: string | null;
  try {
    id = window.sessionStorage.getItem(KEY);
    if (!id || !/^[0-9a-f]{8,32}$/.test(id)) {
      id = randomId();
      window.sessionStorage.setItem(KEY, id);
    }
  } catch (_blocked) {
    // Storage denied (sandboxed frame, privacy settings): a session per load.
    id = randomId();
  }
  // Same-origin frames share the tab's sessionStorage; each frame is its own page.
  return window.top === window ? id : `${id}-frame-${randomId().slice(0, 8)}`;
}
