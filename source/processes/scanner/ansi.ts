// The scanner's stripper is the tree's one stripper (source/text/ansi.ts); this path stays for its importers.
export {stripAnsi} from '../../text/ansi.js';
