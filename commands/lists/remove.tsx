import {listItemCommand} from '../../source/cli/feeds/list-item-command.js';

const command = listItemCommand('remove');
export const {description, args, options} = command;
export default command.Component;
