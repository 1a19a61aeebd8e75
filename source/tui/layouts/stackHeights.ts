/** Rows a pane needs to be worth showing: border, title and a few lines. */
export const MIN_PANE_HEIGHT = 6;

// The focused pane gets 3 shares of the height, every other shown pane 2 (an accordion).
const FOCUSED_SHARE = 3;
const OTHER_SHARE = 2;

/**
 * Heights of panes stacked top to bottom in registry order. Panes keep their place; the focused
 * one grows. When not all fit, the ones farthest from the focused pane get 0 (hidden).
 */
export function stackHeights(count: number, focused: number, bodyHeight: number, minHeight = MIN_PANE_HEIGHT): number[] {
  if (count <= 0) return [];
  const heights = new Array<number>(count).fill(0);
  const fitting = Math.max(1, Math.min(count, Math.floor(bodyHeight / minHeight)));
  const byDistance = [...heights.keys()].sort((a, b) => Math.abs(a - focused) - Math.abs(b - focused) || a - b);
  const shown = byDistance.slice(0, fitting);
  const shares = FOCUSED_SHARE + OTHER_SHARE * (shown.length - 1);
  let used = 0;
  for (const index of shown) {
    if (index === focused) continue;
    heights[index] = Math.floor((bodyHeight * OTHER_SHARE) / shares);
    used += heights[index];
  }
  heights[focused] = Math.max(0, bodyHeight - used);
  return heights;
}
