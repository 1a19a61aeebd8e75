/**
 * The number of the focused pane in a stacked TUI frame (ink-testing-library's or a tmux capture):
 * the layout gives the focused pane the most rows, and each pane's box opens with `│N Title`. A
 * key sent right after a pane's number key reaches the pane focused when it is read: tests wait
 * for this before sending it.
 */
export function focusedPane(frame: string): number | undefined {
  let best: {number: number; rows: number} | undefined;
  let open: {number: number; rows: number} | undefined;
  for (const line of frame.split('\n')) {
    const title = /^│(\d) /.exec(line);
    if (title) open = {number: Number(title[1]), rows: 0};
    else if (line.startsWith('╰')) {
      if (open && (!best || open.rows > best.rows)) best = open;
      open = undefined;
    } else if (open) open.rows++;
  }
  return best?.number;
}
