// ink 6 works out every line's styled characters and widths anew for each frame (its caches live
// as long as one frame's Output): at 200×60 that is most of a frame's cost, for lines that mostly
// did not change, or came back (j/k between two processes swaps their outputs). The build
// (scripts/build.mjs) hands each Output's caches to this function, which lets them take what recent
// frames worked out: the lines asked for lately, two generations of at most RECENT_LINES each.
const RECENT_LINES = 1024;
let styledChars;
let widths;

/** `caches` (ink's OutputCaches of a new frame), looking in what recent frames worked out first. */
export function withRecentFrames(caches) {
  styledChars ??= recent(RECENT_LINES);
  widths ??= recent(RECENT_LINES);
  const getStyledChars = caches.getStyledChars.bind(caches);
  const getStringWidth = caches.getStringWidth.bind(caches);
  caches.getStyledChars = (line) => styledChars(line, () => getStyledChars(line));
  caches.getStringWidth = (text) => widths(text, () => getStringWidth(text));
  return caches;
}

// What ink's Output.get (6.8) does per frame at 200×60: a grid of 12,000 cells, every write's
// characters put in it, every row turned back into a string. Most rows are written by exactly the
// same writes as in the frame before (a j/k changes two rows of the list and the output beside it).
// `rowReusingGet` is ink's get, but a row whose writes (position and text, in order) equal the last
// frame's is taken whole from it; the others are built as ink builds them. The build (scripts/build.mjs)
// puts it in place of Output.prototype.get, and fails if ink's get is no longer the one copied here.
const BLANK = {type: 'char', value: ' ', fullWidth: false, styles: []};

/** Results of a pure function of a string, kept while they are asked for (two generations). */
function recent(limit) {
  let current = new Map();
  let previous = new Map();
  return (key, work) => {
    let value = current.get(key);
    if (value !== undefined) return value;
    value = previous.get(key);
    if (value === undefined) value = work();
    if (current.size >= limit) {
      previous = current;
      current = new Map();
    }
    current.set(key, value);
    return value;
  };
}

function sameWrites(a, b) {
  if (a === undefined || a.length !== b.length) return false;
  for (let index = 0; index < a.length; index++) if (a[index] !== b[index]) return false;
  return true;
}

/** ink's Output.prototype.get, reusing unchanged rows of the last frame; `sliceAnsi` and `styledCharsToString` as ink's output.js imports them. */
export function rowReusingGet({sliceAnsi, styledCharsToString}) {
  let last = {width: -1, writes: [], rows: []};
  const slices = recent(4096);
  return function get() {
    // Each row: x, line, x, line… in the order ink would write them.
    const writes = [];
    for (let y = 0; y < this.height; y++) writes.push([]);
    const clips = [];
    for (const operation of this.operations) {
      if (operation.type === 'clip') clips.push(operation.clip);
      if (operation.type === 'unclip') clips.pop();
      if (operation.type === 'write') {
        const {text, transformers} = operation;
        let {x, y} = operation;
        let lines = text.split('\n');
        const clip = clips.at(-1);
        if (clip) {
          const clipHorizontally = typeof clip?.x1 === 'number' && typeof clip?.x2 === 'number';
          const clipVertically = typeof clip?.y1 === 'number' && typeof clip?.y2 === 'number';
          if (clipHorizontally) {
            const width = this.caches.getWidestLine(text);
            if (x + width < clip.x1 || x > clip.x2) continue;
          }
          if (clipVertically) {
            const height = lines.length;
            if (y + height < clip.y1 || y > clip.y2) continue;
          }
          if (clipHorizontally) {
            lines = lines.map((line) => {
              const from = x < clip.x1 ? clip.x1 - x : 0;
              const width = this.caches.getStringWidth(line);
              const to = x + width > clip.x2 ? clip.x2 - x : width;
              return slices(`${from}\u0000${to}\u0000${line}`, () => sliceAnsi(line, from, to));
            });
            if (x < clip.x1) x = clip.x1;
          }
          if (clipVertically) {
            const from = y < clip.y1 ? clip.y1 - y : 0;
            const height = lines.length;
            const to = y + height > clip.y2 ? clip.y2 - y : height;
            lines = lines.slice(from, to);
            if (y < clip.y1) y = clip.y1;
          }
        }
        let offsetY = 0;
        for (let [index, line] of lines.entries()) {
          const row = writes[y + offsetY];
          // As in ink: a line past the last row is dropped, and so is every line after it.
          if (!row) continue;
          for (const transformer of transformers) line = transformer(line, index);
          row.push(x, line);
          offsetY++;
        }
      }
    }
    const rows = [];
    for (let y = 0; y < writes.length; y++) {
      if (last.width === this.width && sameWrites(last.writes[y], writes[y])) {
        rows.push(last.rows[y]);
        continue;
      }
      const cells = new Array(this.width).fill(BLANK);
      const rowWrites = writes[y];
      for (let write = 0; write < rowWrites.length; write += 2) {
        let offsetX = rowWrites[write];
        for (const character of this.caches.getStyledChars(rowWrites[write + 1])) {
          cells[offsetX] = character;
          const characterWidth = Math.max(1, this.caches.getStringWidth(character.value));
          // A wide character's following cells are cleared, as ink does.
          for (let index = 1; index < characterWidth; index++) cells[offsetX + index] = {type: 'char', value: '', fullWidth: false, styles: character.styles};
          offsetX += characterWidth;
        }
      }
      rows.push(styledCharsToString(cells.filter((item) => item !== undefined)).trimEnd());
    }
    last = {width: this.width, writes, rows};
    return {output: rows.join('\n'), height: rows.length};
  };
}

/** widest-line, remembered: ink measures every text node's widest line on every frame (render-node-to-output.js). */
export function rememberedWidestLine(widestLine) {
  const widths = recent(4096);
  return (text) => widths(text, () => widestLine(text));
}
