/** `1 article`, `3 articles`, `0 articles`; `plural(2, 'entry', 'entries')` for the irregular. */
export function plural(count: number, word: string, many = `${word}s`): string {
  return `${count} ${count === 1 ? word : many}`;
}
