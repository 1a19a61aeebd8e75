import {z} from 'zod';
import {argument, option} from 'pastel';
import {textCommand} from './command-output.js';

/**
 * `snapshot baseline <name>` and `snapshot compare <name>`: the same capture flags, handed to the
 * snapshot tool. compare adds --threshold and exits 1 when the page changed more than it allows.
 */
export function snapshotCaptureCommand(action: 'baseline' | 'compare') {
  const args = z.tuple([z.string().describe(argument({name: 'name', description: 'Snapshot name (letters, digits, ".", "-", "_")'}))]);
  const options = z.object({
    url: z
      .string()
      .optional()
      .describe(
        option({
          description: action === 'baseline' ? 'The page to capture (http or https; default: the page open through a dev proxy)' : "The page to capture (default: the baseline's)",
          valueDescription: 'url',
        }),
      ),
    threshold: z
      .string()
      .optional()
      .describe(option({description: 'compare: the largest ratio of changed pixels that passes, 0 to 1 (default 0.01)', valueDescription: 'ratio'})),
    width: z
      .string()
      .optional()
      .describe(option({description: action === 'baseline' ? 'Viewport width (default 1280)' : "Viewport width (default: the baseline's)", valueDescription: 'px'})),
    height: z
      .string()
      .optional()
      .describe(option({description: action === 'baseline' ? 'Viewport height (default 800)' : "Viewport height (default: the baseline's)", valueDescription: 'px'})),
    fullPage: z.boolean().optional().describe('The whole scrollable page, not just the viewport'),
    timeout: z
      .string()
      .optional()
      .describe(option({description: 'Seconds the capture may take (default 30)', valueDescription: 's'})),
    json: z.boolean().default(false).describe('Print JSON'),
  });
  type Props = {args: z.infer<typeof args>; options: z.infer<typeof options>};
  const Component = textCommand<Props>(
    async ({args: [name], options: flags}) => {
      const {runToolCommand} = await import('./tool-command.js');
      const {parseDecimal, parseInteger} = await import('../core/parse-number.js');
      if (action === 'baseline' && flags.threshold !== undefined) {
        const {WorkbenchError} = await import('../core/errors.js');
        throw new WorkbenchError('invalid_argument', '--threshold belongs to snapshot compare; a baseline has nothing to compare with');
      }
      const toolArgs = {
        action,
        name,
        url: flags.url,
        threshold: parseDecimal(flags.threshold, '--threshold'),
        width: parseInteger(flags.width, '--width'),
        height: parseInteger(flags.height, '--height'),
        full_page: flags.fullPage,
        timeout: parseInteger(flags.timeout, '--timeout'),
      };
      return runToolCommand('snapshot', toolArgs, {json: flags.json, exitCode: (result: {passed?: boolean}) => (result.passed === false ? 1 : 0)});
    },
    {json: ({options: flags}) => flags.json},
  );
  const description =
    action === 'baseline'
      ? 'Capture a page in headless Chromium and store it as the baseline <name>'
      : 'Capture the page again and compare it with the baseline pixel by pixel; exits 1 when more changed than --threshold';
  return {description, args, options, Component};
}
