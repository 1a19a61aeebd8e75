const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const BLANK = '      ';

/** Six columns: `Mar 10` this year, `Mar'23` before — a date column as narrow as newsboat's. */
export function shortDate(iso: string | null, now = new Date()): string {
  if (!iso) return BLANK;
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return BLANK;
  const month = MONTHS[date.getMonth()];
  if (date.getFullYear() === now.getFullYear()) return `${month} ${String(date.getDate()).padStart(2)}`;
  return `${month}'${String(date.getFullYear() % 100).padStart(2, '0')}`;
}
