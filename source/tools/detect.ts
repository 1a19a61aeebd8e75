import {resolve} from 'node:path';
import {z} from 'zod';
import {detectProject, formatProjectInfo} from '../project/detect.js';
import {defineTool} from './registry-types.js';

export const detectTool = defineTool({
  name: 'detect',
  description: 'Detects the project type (node, go, python; several when mixed), its package manager and the scripts that can be run.',
  input: z.object({
    path: z.string().max(4096).optional().describe('Project directory; defaults to the current directory'),
  }),
  handler: async ({path}, context) => detectProject(resolve(context.cwd, path ?? '.')),
  compact: (info) => formatProjectInfo(info),
});
