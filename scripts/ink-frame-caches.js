// ink 6 works out every line's styled characters and widths anew for each frame (its caches live
// as long as one frame's Output): at 200×60 that is most of a frame's cost, for lines that mostly
// did not change. The build (scripts/build.mjs) hands each Output's caches to this function, which
// lets them take what the frame before worked out. What a frame did not use is dropped with it.
let last;

/** `caches` (ink's OutputCaches of a new frame), looking in the last frame's before working anything out. */
export function withLastFrame(caches) {
  if (last) last.lastFrame = undefined;
  caches.lastFrame = last;
  last = caches;
  const styledChars = caches.getStyledChars.bind(caches);
  const stringWidth = caches.getStringWidth.bind(caches);
  caches.getStyledChars = (line) => {
    const kept = caches.styledChars.has(line) ? undefined : caches.lastFrame?.styledChars.get(line);
    if (kept !== undefined) caches.styledChars.set(line, kept);
    return styledChars(line);
  };
  caches.getStringWidth = (text) => {
    const kept = caches.widths.has(text) ? undefined : caches.lastFrame?.widths.get(text);
    if (kept !== undefined) caches.widths.set(text, kept);
    return stringWidth(text);
  };
  return caches;
}
