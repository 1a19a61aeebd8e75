import {procActionCommand} from '../../source/cli/proc-action-command.js';

const command = procActionCommand('remove');
export const {description, args, options} = command;
export default command.Component;
