/**
 * The most characters one tool answer carries (chrome-devtools-mcp and playwright-mcp keep their
 * answers small too: an agent pays for every character in its context). Over it, an answer is cut
 * and says so, and how to get the rest.
 */
export const ANSWER_BUDGET = 20_000;

/** Text cut to the budget, keeping the head (lists) or the tail (output), with a line saying what was left out. */
export function fitText(text: string, options: {keep: 'head' | 'tail'; hint: string; budget?: number}): {text: string; cut: number} {
  const budget = options.budget ?? ANSWER_BUDGET;
  if (text.length <= budget) return {text, cut: 0};
  const cut = text.length - budget;
  if (options.keep === 'tail') {
    const kept = text.slice(cut);
    // Start at a line boundary when one is near, so the first line shown is whole.
    const newline = kept.indexOf('\n');
    const body = newline >= 0 && newline < 200 ? kept.slice(newline + 1) : kept;
    const left = text.length - body.length;
    return {text: `[${left.toLocaleString('en')} earlier characters left out of ${text.length.toLocaleString('en')}: ${options.hint}]\n${body}`, cut: left};
  }
  const kept = text.slice(0, budget);
  const newline = kept.lastIndexOf('\n');
  const body = newline > budget - 200 ? kept.slice(0, newline) : kept;
  const left = text.length - body.length;
  return {text: `${body}\n[${left.toLocaleString('en')} more characters left out of ${text.length.toLocaleString('en')}: ${options.hint}]`, cut: left};
}

/** A JSON array cut from the end until it fits the budget; says how many items were kept. */
export function fitArray<T>(items: T[], budget = ANSWER_BUDGET): {items: T[]; dropped: number} {
  let kept = items;
  while (kept.length > 0 && JSON.stringify(kept, null, 2).length > budget) kept = kept.slice(0, Math.max(0, Math.floor(kept.length * 0.8)));
  return {items: kept, dropped: items.length - kept.length};
}
