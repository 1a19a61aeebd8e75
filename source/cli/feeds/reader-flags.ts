import {z} from 'zod';
import {option} from 'pastel';

/** Flags every reader command shares: where the reader is, and JSON for scripts. */
export const readerFlags = {
  server: z
    .string()
    .optional()
    .describe(
      option({
        description: 'A running reader (`workbench serve reader`), e.g. http://127.0.0.1:7700; else WORKBENCH_READER_URL, else the one serve reader announced, else in-process',
        valueDescription: 'url',
      }),
    ),
  db: z
    .string()
    .optional()
    .describe(option({description: 'Open this store in-process: a SQLite path or a postgres:// / mysql:// URL', valueDescription: 'path|url'})),
  json: z.boolean().default(false).describe('Print JSON'),
};

export type ReaderFlags = {server?: string; db?: string; json: boolean};
