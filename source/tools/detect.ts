import {resolve} from 'node:path';
import {z} from 'zod';
import type {ProjectInfo} from '../project/detect.js';
import {formatProjectInfo} from '../project/format-project.js';
import {defineTool} from './registry-types.js';

export const detectTool = defineTool({
  name: 'detect',
  title: 'Detect project and scripts',
  description: [
    'Detects the project type (node, go, python; several when mixed), its package manager and the scripts that can be run (package.json, Makefile, pyproject, .workbench.kdl).',
    'Use it first in a project to learn the script names `run` accepts. Reads files only.',
    'Example: {"path": "."}',
  ].join('\n'),
  annotations: {readOnlyHint: true, idempotentHint: true, openWorldHint: false},
  input: z.strictObject({
    path: z.string().max(4096).default('.').describe('Project directory, relative to the server’s working directory'),
  }),
  output: z.looseObject({
    root: z.string(),
    types: z.array(z.enum(['node', 'go', 'python'])),
    packageManager: z.string().nullable(),
    packageManagers: z.record(z.string(), z.string()),
    scripts: z.array(z.looseObject({name: z.string(), command: z.string(), source: z.string()})),
    warnings: z.array(z.string()),
  }),
  // The project readers (and the KDL parser's grammar) load only when a tool needs them: CLI start-up stays fast.
  handler: async ({path}, context) => (await import('../project/detect.js')).detectProject(resolve(context.cwd, path ?? '.')),
  compact: (info: ProjectInfo) => formatProjectInfo(info),
  structured: (info: ProjectInfo) => ({...info}),
});
