/** The one length limit of spec 1: messages in compact output and extracted bodies. */
export const MESSAGE_LIMIT = 200;

/**
 * `text` cut to at most `max` characters; a cut text ends in `…` (counted in the limit) so a
 * reader can tell it was shortened. A surrogate pair is never split.
 */
export function truncateText(text: string, max = MESSAGE_LIMIT): string {
  if (text.length <= max) return text;
  let end = max - 1;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  return `${text.slice(0, end)}…`;
}
