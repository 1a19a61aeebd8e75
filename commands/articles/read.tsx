import {readStateCommand} from '../../source/feeds/client/read-state-command.js';

const command = readStateCommand(true);
export const {description, args, options} = command;
export default command.Component;
