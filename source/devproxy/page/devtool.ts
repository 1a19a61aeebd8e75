/** Builds window.__devtool from the catalogue: each primitive wrapped so a throw (or a rejected promise) answers {error}. */
import {CATALOG} from './catalog.js';

function guarded(name: string, run: (...args: unknown[]) => unknown) {
  const answerError = (error: unknown) => ({error: `${name} failed: ${error instanceof Error ? error.message : String(error)}`});
  return (...args: unknown[]) => {
    try {
      const result = run(...args);
      return result instanceof Promise ? result.catch(answerError) : result;
    } catch (error) {
      return answerError(error);
    }
  };
}

export function buildDevtool(): Record<string, (...args: unknown[]) => unknown> {
  const devtool: Record<string, (...args: unknown[]) => unknown> = {};
  for (const group of CATALOG) for (const [name, entry] of Object.entries(group.primitives)) devtool[name] = guarded(name, entry.run as (...args: unknown[]) => unknown);
  return devtool;
}
