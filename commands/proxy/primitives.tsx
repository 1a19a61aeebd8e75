import {z} from 'zod';
import {textCommand} from '../../source/cli/command-output.js';

export const description = 'Print the reference of window.__devtool: every diagnostic function a proxied page has';

export const options = z.object({
  json: z.boolean().default(false).describe('Print the functions as JSON (name, group, params, summary)'),
});

type Props = {options: z.infer<typeof options>};

export default textCommand<Props>(
  async ({options: flags}) => {
    const {primitives, primitivesReference} = await import('../../source/devproxy/page-script.js');
    return {stdout: flags.json ? JSON.stringify(primitives(), null, 2) + '\n' : primitivesReference()};
  },
  {json: ({options: flags}) => flags.json},
);
