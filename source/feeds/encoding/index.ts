// Feed bodies from bytes to text (spec 2, part A: charset from header, XML declaration or BOM).
export {decodeFeedBody, decodeAs, c1AsWindows1252} from './decode-body.js';
export {sniffCharset, type CharsetGuess, type CharsetSource} from './sniff-charset.js';
export {parseContentType, type ContentType} from './content-type.js';
