import {option} from 'pastel';
import {z} from 'zod';

export const settingsFlag = {
  settings: z
    .string()
    .optional()
    .describe(
      option({description: 'Settings file (default: appsettings.json here, else SQLite in WORKBENCH_HOME); GqlService__* variables override it', valueDescription: 'file'}),
    ),
};

export const rawFlag = {
  raw: z.boolean().default(false).describe('Print JSON'),
};
