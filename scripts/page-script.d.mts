export const PAGE_SCRIPT_MODULE: string;
export const PAGE_SCRIPT_ENTRY: string;
export function bundlePageScript(): Promise<{code: string; inputs: string[]}>;
export function pageScriptModule(): Promise<{contents: string; inputs: string[]}>;
