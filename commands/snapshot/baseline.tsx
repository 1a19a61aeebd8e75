import {snapshotCaptureCommand} from '../../source/cli/snapshot-capture-command.js';

const command = snapshotCaptureCommand('baseline');
export const {description, args, options} = command;
export default command.Component;
