import {procActionCommand} from '../../source/cli/proc-action-command.js';

const command = procActionCommand('stop');
export const {description, args, options} = command;
export default command.Component;
