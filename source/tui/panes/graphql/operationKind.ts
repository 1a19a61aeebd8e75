/** Whether a document's (first) operation is a subscription: those stream, and run until stopped. */
export function isSubscriptionText(query: string): boolean {
  const code = query.replace(/#[^\n]*/g, '');
  return /^\s*subscription\b/.test(code);
}
