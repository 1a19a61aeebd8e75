/**
 * Finds any of a set of literal byte strings in raw output without decoding it: a Wu–Manber
 * search over 4-byte windows with a 2-byte shift table. A JS loop over the bytes skips ahead up
 * to 3 bytes per step, which beats one big regex alternation (whose cost grows with every
 * alternative and which loses its skip tables on non-ASCII literals like Next's `⨯`).
 */

const WINDOW = 4;
const NO_LIST = -1;

interface Candidate {
  fragment: number;
  bytes: Uint8Array;
  /** Offset of the 4-byte window inside the fragment. */
  offset: number;
}

export class FragmentSearch {
  readonly fragments: readonly string[];
  private readonly shift = new Uint8Array(65536).fill(WINDOW - 1);
  /** Per 2-byte block ending a window: index into `lists`, or NO_LIST. */
  private readonly listOf = new Int32Array(65536).fill(NO_LIST);
  private readonly lists: Candidate[][] = [];

  constructor(fragments: readonly string[]) {
    this.fragments = fragments;
    fragments.forEach((fragment, index) => {
      const bytes = Buffer.from(fragment, 'utf8');
      if (bytes.length < WINDOW) throw new Error(`FragmentSearch: fragment "${fragment}" is shorter than ${WINDOW} bytes`);
      const offset = bestWindow(bytes);
      for (let q = 2; q <= WINDOW; q++) {
        const block = bytes[offset + q - 2] | (bytes[offset + q - 1] << 8);
        this.shift[block] = Math.min(this.shift[block], WINDOW - q);
      }
      const last = bytes[offset + WINDOW - 2] | (bytes[offset + WINDOW - 1] << 8);
      if (this.listOf[last] === NO_LIST) {
        this.listOf[last] = this.lists.length;
        this.lists.push([]);
      }
      this.lists[this.listOf[last]].push({fragment: index, bytes, offset});
    });
  }

  /**
   * Start of the first fragment occurrence found in bytes[from, to), or -1. Occurrences are found
   * in the order their windows end, so the first hit lies on the first line that holds one.
   */
  find(bytes: Uint8Array, from: number, to: number): number {
    const shift = this.shift;
    let i = from + WINDOW - 1;
    while (i < to) {
      const block = bytes[i - 1] | (bytes[i] << 8);
      const step = shift[block];
      if (step !== 0) {
        i += step;
        continue;
      }
      const start = this.verify(bytes, from, to, i - WINDOW + 1, this.listOf[block], undefined);
      if (start !== -1) return start;
      i++;
    }
    return -1;
  }

  /** Calls `visit` with the index of every fragment occurring in bytes[from, to) (repeats possible). */
  each(bytes: Uint8Array, from: number, to: number, visit: (fragment: number) => void): void {
    const shift = this.shift;
    for (let i = from + WINDOW - 1; i < to;) {
      const block = bytes[i - 1] | (bytes[i] << 8);
      const step = shift[block];
      if (step !== 0) {
        i += step;
        continue;
      }
      this.verify(bytes, from, to, i - WINDOW + 1, this.listOf[block], visit);
      i++;
    }
  }

  /** Fragment start for a window at `windowStart`, checking every fragment whose window ends in its block. */
  private verify(bytes: Uint8Array, from: number, to: number, windowStart: number, list: number, visit: ((fragment: number) => void) | undefined): number {
    if (list === NO_LIST) return -1;
    const candidates = this.lists[list];
    for (let c = 0; c < candidates.length; c++) {
      const candidate = candidates[c];
      const start = windowStart - candidate.offset;
      const length = candidate.bytes.length;
      if (start < from || start + length > to) continue;
      let j = 0;
      while (j < length && bytes[start + j] === candidate.bytes[j]) j++;
      if (j !== length) continue;
      if (!visit) return start;
      visit(candidate.fragment);
    }
    return -1;
  }
}

/**
 * The 4-byte window of a fragment least likely to occur in ordinary text: every common byte
 * pair inside the window shortens the skip, and a common pair at its end costs a verification.
 */
function bestWindow(bytes: Uint8Array): number {
  let best = 0;
  let bestScore = Infinity;
  for (let offset = 0; offset + WINDOW <= bytes.length; offset++) {
    let score = 0;
    for (let q = 2; q <= WINDOW; q++) score += (q - 1) * commonness(bytes[offset + q - 2]) * commonness(bytes[offset + q - 1]);
    if (score < bestScore) {
      best = offset;
      bestScore = score;
    }
  }
  return best;
}

// Rough frequency classes of bytes in English-ish log text.
const FREQUENT_LETTERS = 'etaoinsrhl';
const USUAL_LETTERS = 'dcumfpgwyb';

function commonness(byte: number): number {
  const ch = String.fromCharCode(byte);
  if (byte === 0x20) return 1;
  if (FREQUENT_LETTERS.includes(ch)) return 1;
  if (USUAL_LETTERS.includes(ch)) return 0.5;
  if (ch >= 'a' && ch <= 'z') return 0.2;
  if (ch >= '0' && ch <= '9') return 0.6;
  if (ch >= 'A' && ch <= 'Z') return 0.15;
  if (byte >= 0x80 || byte < 0x20) return 0.05;
  return 0.3;
}
