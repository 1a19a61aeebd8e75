export {options, default} from './list.js';

export const description = 'Supervised processes: list (the default), output, status, stop, restart, remove';
