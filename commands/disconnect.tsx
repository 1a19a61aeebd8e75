import {z} from 'zod';
import {argument} from 'pastel';
import {textCommand} from '../source/cli/command-output.js';

export const description = 'Forget the stored sign-in of a provider (its profile stays)';

export const args = z.tuple([z.string().describe(argument({name: 'name', description: 'Provider name'}))]);

type Props = {args: z.infer<typeof args>};

export default textCommand<Props>(async ({args: [name]}) => {
  const {disconnect} = await import('../source/agent/signin/disconnect.js');
  const {toTerminalLine} = await import('../source/text/terminal-safe.js');
  const result = disconnect(name);
  return {
    stdout: `${toTerminalLine(result.forgot ? `Forgot the sign-in for ${result.provider} (${result.tokenFile}); the profile stays` : `No stored sign-in for ${result.provider}`)}\n`,
  };
});
