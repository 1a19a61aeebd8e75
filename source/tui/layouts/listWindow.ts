/** First row to draw so the selected row of a long list stays visible, scrolling as little as it can. */
export function listWindowStart(selected: number, total: number, visibleRows: number, previousStart = 0): number {
  if (visibleRows <= 0 || total <= visibleRows) return 0;
  let start = Math.min(Math.max(previousStart, 0), total - visibleRows);
  if (selected < start) start = selected;
  if (selected >= start + visibleRows) start = selected - visibleRows + 1;
  return Math.max(0, Math.min(start, total - visibleRows));
}
