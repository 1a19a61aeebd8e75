/** The defaults of a snapshot, apart from the logic so the tool's schema can name them without loading the browser code. */
export const DEFAULT_VIEWPORT = {width: 1280, height: 800} as const;
export const DEFAULT_THRESHOLD = 0.01;
export const DEFAULT_TIMEOUT_S = 30;
