/**
 * Runs code the proxy sends (`workbench proxy exec`). The code is an expression (`document.title`)
 * or a function body (`const n = 1; return n + 1`): it is tried as an expression first, and as a body
 * when that does not parse, so `return` is needed only for statements. Both run as async functions,
 * so `await` works and a returned promise is awaited. Values come back JSON-safe.
 */
import {toJsonSafe} from './json-safe.js';

type AsyncFunctionConstructor = new (...source: string[]) => () => Promise<unknown>;
const AsyncFunction = Object.getPrototypeOf(async () => undefined).constructor as AsyncFunctionConstructor;

export type ExecOutcome = {ok: true; value: unknown} | {ok: false; error: string};

function compile(code: string): () => Promise<unknown> {
  const expression = code.trim().replace(/;+\s*$/, '');
  if (expression !== '') {
    try {
      // The newline keeps a trailing // comment from swallowing the closing parenthesis.
      return new AsyncFunction(`return (\n${expression}\n);`);
    } catch (error) {
      if (!(error instanceof SyntaxError)) throw error;
    }
  }
  return new AsyncFunction(code);
}

export function errorText(error: unknown): string {
  if (error instanceof Error) {
    const text = `${error.name}: ${error.message}`;
    return error instanceof EvalError || /unsafe-eval|Content Security Policy/i.test(error.message)
      ? `${text} (the page's Content-Security-Policy forbids running code from strings: exec needs 'unsafe-eval' in script-src)`
      : text;
  }
  try {
    return `thrown: ${JSON.stringify(toJsonSafe(error))}`;
  } catch (_unprintable) {
    return `thrown: ${String(error)}`;
  }
}

export async function execute(code: unknown, timeoutMs: unknown): Promise<ExecOutcome> {
  if (typeof code !== 'string') return {ok: false, error: 'code must be a string'};
  let timer = 0;
  try {
    const run = compile(code).call(window);
    const limit = typeof timeoutMs === 'number' && timeoutMs > 0 ? timeoutMs : 0;
    const value = limit
      ? await Promise.race([run, new Promise<never>((_resolve, reject) => (timer = window.setTimeout(() => reject(new Error(`exec timed out after ${limit} ms`)), limit)))])
      : await run;
    return {ok: true, value: toJsonSafe(value)};
  } catch (error) {
    return {ok: false, error: errorText(error).slice(0, 4000)};
  } finally {
    window.clearTimeout(timer);
  }
}
