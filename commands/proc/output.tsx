import React from 'react';
import {z} from 'zod';
import {argument, option} from 'pastel';
import {CommandOutput} from '../../source/cli/command-output.js';

export const description = "Print a process's output ring (ANSI stripped)";

export const args = z.tuple([z.string().describe(argument({name: 'id', description: 'Process id'}))]);

export const options = z.object({
  tail: z.string().optional().describe(option({description: 'Last N lines', valueDescription: 'n'})),
  grep: z.string().optional().describe(option({description: 'Only lines matching a regular expression', valueDescription: 're'})),
});

export default function ProcOutput({args: [id], options: flags}: {args: z.infer<typeof args>; options: z.infer<typeof options>}) {
  return (
    <CommandOutput
      task={async () => {
        const {runToolCommand} = await import('../../source/cli/tool-command.js');
        const {parseInteger} = await import('../../source/cli/parse-number.js');
        const tail = parseInteger(flags.tail, '--tail');
        if (tail !== undefined && tail < 0) throw new (await import('../../source/core/errors.js')).WorkbenchError('invalid_argument', `--tail must be 0 or more, got ${tail}`);
        const result = await runToolCommand('proc', {action: 'output', process_id: id, tail, grep: flags.grep});
        // The output is printed as the process printed it; no extra newline.
        return {...result, stdout: result.stdout === '\n' ? '' : result.stdout};
      }}
    />
  );
}
