import {readStateCommand} from '../../source/feeds/client/read-state-command.js';

const command = readStateCommand(false);
export const {description, args, options} = command;
export default command.Component;
