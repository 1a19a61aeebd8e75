/** The bundled GraphQL playground as text (scripts/playground.mjs). */
export function bundlePlayground(): Promise<{js: string; css: string}>;
export const PLAYGROUND_ENTRY: string;
