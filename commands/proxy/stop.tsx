import {proxyActionCommand} from '../../source/cli/proxy-action-command.js';

const command = proxyActionCommand('stop');
export const {description, args, options} = command;
export default command.Component;
