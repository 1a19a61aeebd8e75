import {describe, expect, it} from 'vitest';
import {isWorkbenchError} from '../../../source/core/errors.js';
import {parseProjectConfig} from '../../../source/project/config.js';

// Damaged copies of a valid file: each must parse or give one config_invalid naming a real line.
const VALID = 'scripts {\n  dev {\n    run "npm run dev"\n    autostart true\n  }\n}\nproxies {\n  app { target "http://localhost:3000"; autostart #false }\n}\n';
const DAMAGE = ['{', '}', '"', '#', '/-', '//', '/*', ';', '=', '(', ')', '\\', '\n', 'x', 'true', '"""', '#"', '['];

function damaged(seed: number): string {
  let state = seed;
  const next = (n: number): number => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state % n;
  };
  let text = VALID;
  for (let edits = 0; edits <= next(3); edits++) {
    const at = next(text.length + 1);
    text = text.slice(0, at) + DAMAGE[next(DAMAGE.length)] + text.slice(at + next(2));
  }
  return text;
}

describe('parseProjectConfig on damaged files', () => {
  it('never throws anything but one config_invalid with a line inside the file', () => {
    let rejected = 0;
    for (let seed = 1; seed <= 1500; seed++) {
      const text = damaged(seed);
      try {
        parseProjectConfig(text);
      } catch (error) {
        rejected++;
        expect(isWorkbenchError(error), JSON.stringify(text)).toBe(true);
        const message = (error as Error).message;
        expect(message.split('\n'), JSON.stringify(text)).toHaveLength(1);
        const line = Number(/^\.workbench\.kdl:(\d+): /.exec(message)?.[1]);
        expect(line >= 1 && line <= text.split('\n').length, `${message} for ${JSON.stringify(text)}`).toBe(true);
        // An unknown name is reported on the line that holds it.
        const unknown = /unknown (?:setting|block) "([^"]+)"/.exec(message)?.[1];
        if (unknown) expect(text.split('\n')[line - 1], message).toContain(unknown);
      }
    }
    expect(rejected).toBeGreaterThan(1000);
  });
});
