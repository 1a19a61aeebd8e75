export {options, default} from './status.js';

export const description = 'The daemon that owns processes and alerts: status (the default), start, stop';
