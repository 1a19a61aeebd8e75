/** Who gets a key first: a higher priority sees it before lower ones and may consume it. */
export const KeyPriority = {
  GLOBAL: 0,
  PANE: 10,
  INPUT: 50,
  OVERLAY: 100,
  CRITICAL: 1000,
} as const;
