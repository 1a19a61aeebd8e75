const SGR = /\u001b\[([0-9;:]*)m/g;

/** Drops the colour parameters of SGR sequences (fore- and background, 8/16/256/true colour); bold, dim, inverse stay. */
export function withoutColours(text: string): string {
  if (!text.includes('\u001b[')) return text;
  return text.replace(SGR, (sequence, parameters: string) => {
    if (parameters === '') return sequence;
    const kept: string[] = [];
    const parts = parameters.split(/[;:]/);
    for (let index = 0; index < parts.length; index++) {
      const code = Number(parts[index]);
      if (code === 38 || code === 48 || code === 58) {
        // 38;5;n or 38;2;r;g;b
        index += parts[index + 1] === '5' ? 2 : parts[index + 1] === '2' ? 4 : 0;
        continue;
      }
      if ((code >= 30 && code <= 39) || (code >= 40 && code <= 49) || (code >= 90 && code <= 97) || (code >= 100 && code <= 107) || code === 59) continue;
      kept.push(parts[index]!);
    }
    return kept.length ? `\u001b[${kept.join(';')}m` : '';
  });
}

/** https://no-color.org: set and not empty. */
export function noColorRequested(env: NodeJS.ProcessEnv = process.env): boolean {
  return Boolean(env.NO_COLOR);
}

/**
 * The same stream, writing every frame without colours (ink's own and the processes' alike). A
 * `write` assigned to it (the frame writer's) wraps the colourless one, not the stream's own.
 */
export function colourlessStream(stdout: NodeJS.WriteStream): NodeJS.WriteStream {
  const streamWrite = stdout.write as (...args: unknown[]) => boolean;
  const colourless = (chunk: unknown, ...rest: unknown[]) => streamWrite.call(stdout, typeof chunk === 'string' ? withoutColours(chunk) : chunk, ...rest);
  let write: unknown = colourless;
  return new Proxy(stdout, {
    get(target, property) {
      if (property === 'write') return write;
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
    set(target, property, value: unknown) {
      if (property === 'write') write = value;
      else Reflect.set(target, property, value, target);
      return true;
    },
  });
}
