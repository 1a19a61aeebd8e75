import {resolve} from 'node:path';
import {z} from 'zod';
import type {ProjectInfo} from '../project/detect.js';
import {formatProjectInfo} from '../project/format-project.js';
import {defineTool} from './registry-types.js';

export const detectTool = defineTool({
  name: 'detect',
  description: 'Detects the project type (node, go, python; several when mixed), its package manager and the scripts that can be run.',
  input: z.object({
    path: z.string().max(4096).optional().describe('Project directory; defaults to the current directory'),
  }),
  // The project readers (and the KDL parser's grammar) load only when a tool needs them: CLI start-up stays fast.
  handler: async ({path}, context) => (await import('../project/detect.js')).detectProject(resolve(context.cwd, path ?? '.')),
  compact: (info: ProjectInfo) => formatProjectInfo(info),
});
