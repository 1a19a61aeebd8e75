import {readStateCommand} from '../../source/cli/feeds/read-state-command.js';

const command = readStateCommand(false);
export const {description, args, options} = command;
export default command.Component;
