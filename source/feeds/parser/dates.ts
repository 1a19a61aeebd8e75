// Feed dates to ISO 8601. Feeds use RFC 822 (RSS), RFC 3339 (Atom, JSON Feed) and whatever their
// software printed: day names, missing seconds, two-digit years, zone names, US "Jan 5, 2024".

const MONTHS: Record<string, number> = {jan: 1, feb: 2, mar: 3, apr: 4, may: 5, jun: 6, jul: 7, aug: 8, sep: 9, oct: 10, nov: 11, dec: 12};

// Offsets in minutes of the zone names feeds print (RFC 822's and common ones).
const ZONES: Record<string, number> = {
  z: 0,
  ut: 0,
  utc: 0,
  gmt: 0,
  wet: 0,
  est: -300,
  edt: -240,
  cst: -360,
  cdt: -300,
  mst: -420,
  mdt: -360,
  pst: -480,
  pdt: -420,
  akst: -540,
  akdt: -480,
  hst: -600,
  ast: -240,
  adt: -180,
  nst: -210,
  ndt: -150,
  bst: 60,
  cet: 60,
  met: 60,
  west: 60,
  cest: 120,
  mest: 120,
  eet: 120,
  eest: 180,
  msk: 180,
  ist: 330,
  sgt: 480,
  hkt: 480,
  awst: 480,
  jst: 540,
  kst: 540,
  acst: 570,
  aest: 600,
  aedt: 660,
  nzst: 720,
  nzdt: 780,
};

const ZONE = String.raw`(z|[a-z]{2,5}(?:[+-]\d{1,2}(?::?\d{2})?)?|[+-]\d{1,2}(?::?\d{2})?)`;
const ISO = /^(\d{4})(?:-(\d{1,2})(?:-(\d{1,2}))?)?(?:[t\s]+(\d{1,2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?)?\s*(z|[+-]\d{2}(?::?\d{2})?|utc|gmt)?$/i;
const COMPACT = /^(\d{4})(\d{2})(\d{2})(?:t(\d{2})(\d{2})(\d{2})?)?\s*(z|[+-]\d{2}:?\d{2})?$/i;
const RFC822 = new RegExp(String.raw`^(\d{1,2})[\s-]+([a-z]{3,9})\.?,?[\s-]+(\d{2,4})(?:[\s,t]+(\d{1,2}):(\d{1,2})(?::(\d{1,2}))?(?:[.,]\d+)?)?\s*${ZONE}?(?:\W|$)`, 'i');
const US = new RegExp(String.raw`^([a-z]{3,9})\.?\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})(?:[\s,t]+(?:at\s+)?(\d{1,2}):(\d{2})(?::(\d{2}))?\s*(am|pm)?)?\s*${ZONE}?(?:\W|$)`, 'i');
const ASCTIME = new RegExp(String.raw`^([a-z]{3,9})\s+(\d{1,2})\s+(\d{1,2}):(\d{2}):(\d{2})\s+(?:${ZONE}\s+)?(\d{4})$`, 'i');
const SLASHED = new RegExp(String.raw`^(\d{4})[/.](\d{1,2})[/.](\d{1,2})(?:[\s,t]+(\d{1,2}):(\d{2})(?::(\d{2}))?)?\s*${ZONE}?$`, 'i');

/** A date as ISO 8601 (UTC, milliseconds), or undefined when the text is no date we can read. */
export function parseFeedDate(raw: string | undefined): string | undefined {
  // No date is longer; a huge field is not worth a regex pass.
  if (!raw || raw.length > 200) return undefined;
  const text = raw.trim().replace(/\s+/g, ' ');
  if (!text) return undefined;
  let m = ISO.exec(text);
  if (m) return build(+m[1], m[2] ? +m[2] : 1, m[3] ? +m[3] : 1, m[4], m[5], m[6], m[7], m[8]);
  m = COMPACT.exec(text);
  if (m) return build(+m[1], +m[2], +m[3], m[4], m[5], m[6], undefined, m[7]);
  // Day names ("Thu, ", "Thursday ") carry nothing the date does not.
  const rest = text.replace(/^(?:mon|tue|wed|thu|fri|sat|sun)[a-z]*\.?,?\s*/i, '');
  m = RFC822.exec(rest);
  if (m) return build(year(m[3]), month(m[2]), +m[1], m[4], m[5], m[6], undefined, m[7]);
  m = US.exec(rest);
  if (m) return build(+m[3], month(m[1]), +m[2], twelveHour(m[4], m[7]), m[5], m[6], undefined, m[8]);
  m = ASCTIME.exec(rest);
  if (m) return build(+m[7], month(m[1]), +m[2], m[3], m[4], m[5], undefined, m[6]);
  m = SLASHED.exec(text);
  if (m) return build(+m[1], +m[2], +m[3], m[4], m[5], m[6], undefined, m[7]);
  const parsed = Date.parse(text);
  return Number.isFinite(parsed) ? new Date(parsed).toISOString() : undefined;
}

function year(text: string): number {
  const value = +text;
  if (text.length > 2) return value;
  return value < 50 ? 2000 + value : 1900 + value;
}

function month(name: string): number {
  return MONTHS[name.slice(0, 3).toLowerCase()] ?? 0;
}

function twelveHour(hour: string | undefined, half: string | undefined): string | undefined {
  if (hour === undefined || !half) return hour;
  const h = +hour % 12;
  return String(half.toLowerCase() === 'pm' ? h + 12 : h);
}

function build(y: number, mo: number, d: number, h?: string, mi?: string, s?: string, frac?: string, zone?: string): string | undefined {
  if (mo < 1 || mo > 12 || d < 1 || d > 31 || y < 1000 || y > 9999) return undefined;
  const hours = h === undefined ? 0 : +h;
  const minutes = mi === undefined ? 0 : +mi;
  const seconds = s === undefined ? 0 : Math.min(+s, 59); // leap second 60
  if (hours > 24 || minutes > 59 || seconds > 59) return undefined;
  // 31 February is no date (Date.UTC would roll it into March).
  if (new Date(Date.UTC(y, mo - 1, d)).getUTCMonth() !== mo - 1) return undefined;
  const millis = frac ? Math.round(+`0.${frac}` * 1000) : 0;
  const offset = zone === undefined ? 0 : zoneOffset(zone);
  if (offset === undefined) return undefined;
  const time = Date.UTC(y, mo - 1, d, hours, minutes, seconds, millis) - offset * 60_000;
  return Number.isFinite(time) ? new Date(time).toISOString() : undefined;
}

/** Minutes east of UTC; unknown zone names count as UTC (better a date off by hours than none). */
function zoneOffset(zone: string): number | undefined {
  const z = zone.toLowerCase();
  const numeric = /^([a-z]*)([+-])(\d{1,2})(?::?(\d{2}))?$/.exec(z);
  if (numeric) {
    const base = numeric[1] ? (ZONES[numeric[1]] ?? 0) : 0;
    const minutes = +numeric[3] * 60 + (numeric[4] ? +numeric[4] : 0);
    if (minutes > 18 * 60) return undefined;
    return base + (numeric[2] === '-' ? -minutes : minutes);
  }
  return ZONES[z] ?? 0;
}
