import {procActionCommand} from '../../source/cli/proc-action-command.js';

const command = procActionCommand('status');
export const {description, args, options} = command;
export default command.Component;
