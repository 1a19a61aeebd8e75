import {snapshotCaptureCommand} from '../../source/cli/snapshot-capture-command.js';

const command = snapshotCaptureCommand('compare');
export const {description, args, options} = command;
export default command.Component;
