/**
 * Runs code the proxy sends (`workbench proxy exec`). The code is an expression (`document.title`)
 * or a function body (`const n = 1; return n + 1`): it is tried as an expression first, and as a body
 * when that does not parse, so `return` is needed only for statements. Both run as async functions,
 * so `await` works and a returned promise is awaited. Values come back JSON-safe.
 *
 * A page whose Content-Security-Policy forbids code from strings (no 'unsafe-eval') still runs
 * exec: the code goes into a <script> element carrying the nonce the proxy gave this script (the
 * proxy adds that nonce to the policy), which the policy allows.
 */
import {toJsonSafe} from './json-safe.js';

type AsyncFunctionConstructor = new (...source: string[]) => () => Promise<unknown>;
const AsyncFunction = Object.getPrototypeOf(async () => undefined).constructor as AsyncFunctionConstructor;

// Read while this script runs: afterwards document.currentScript is no longer it.
const pageNonce = (document.currentScript as HTMLScriptElement | null)?.nonce ?? '';
const SLOT = '__workbenchExecSlot';

export type ExecOutcome = {ok: true; value: unknown} | {ok: false; error: string};

function compile(code: string): () => Promise<unknown> {
  const expression = code.trim().replace(/;+\s*$/, '');
  try {
    if (expression !== '') {
      try {
        // The newline keeps a trailing // comment from swallowing the closing parenthesis.
        return new AsyncFunction(`return (\n${expression}\n);`);
      } catch (error) {
        if (!(error instanceof SyntaxError)) throw error;
      }
    }
    return new AsyncFunction(code);
  } catch (error) {
    if (error instanceof SyntaxError || pageNonce === '') throw error;
    // EvalError: the policy forbids strings as code.
    return compileInScript(code, expression);
  }
}

// A parse error of an exec script is reported on window, after appendChild returns: each failed
// attempt expects one, and a capture listener registered before the page's own keeps it from the
// page and from our error report.
let expectedParseErrors = 0;
let lastParseError = '';
window.addEventListener(
  'error',
  (event) => {
    if (expectedParseErrors === 0 || !(event instanceof ErrorEvent) || !/SyntaxError/.test(event.message)) return;
    expectedParseErrors--;
    lastParseError = event.message;
    event.preventDefault();
    event.stopImmediatePropagation();
  },
  true,
);

/** One attempt: the function a nonce'd script defines, or undefined when the code does not parse. */
function defineInScript(body: string): (() => Promise<unknown>) | undefined {
  const holder = window as unknown as Record<string, unknown>;
  const script = document.createElement('script');
  script.nonce = pageNonce;
  script.textContent = `window.${SLOT} = async function () {\n${body}\n};`;
  const reported = expectedParseErrors;
  expectedParseErrors++;
  (document.head ?? document.documentElement).appendChild(script);
  script.remove();
  const run = holder[SLOT];
  delete holder[SLOT];
  if (typeof run !== 'function') return undefined;
  // It parsed: no error will come (one reported during appendChild already took its count).
  if (expectedParseErrors > reported) expectedParseErrors--;
  return run as () => Promise<unknown>;
}

function compileInScript(code: string, expression: string): () => Promise<unknown> {
  const asExpression = expression === '' ? undefined : defineInScript(`return (\n${expression}\n);`);
  const run = asExpression ?? defineInScript(code);
  if (run) return run;
  const reason = lastParseError.replace(/^Uncaught\s+/, '').replace(/^SyntaxError:\s*(Failed to execute 'appendChild' on 'Node':\s*)?/, '');
  throw new SyntaxError(reason || 'the code does not parse');
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
