import type {IncomingHttpHeaders} from 'node:http';

/** What a response parser reports, in order: one head, its body in parts, its end. */
export interface ResponseEvents {
  onHead(status: number, statusMessage: string, headers: IncomingHttpHeaders): void;
  onBody(chunk: Buffer): void;
  /** `reusable`: the connection may carry another request (keep-alive, and nothing came after the message). */
  onEnd(reusable: boolean): void;
}

/** A response that breaks HTTP/1.1 framing; the code is the one llhttp would give, which the failure report knows. */
export class MalformedResponse extends Error {
  readonly code = 'HPE_INVALID_RESPONSE';
  override readonly name = 'HTTPParserError';
}

export const MAX_HEAD_BYTES = 64 * 1024;
const MAX_CHUNK_LINE = 4096;
const CRLF_CRLF = Buffer.from('\r\n\r\n');
const STATUS_LINE = /^HTTP\/1\.([01]) ([1-9]\d\d)(?: ([^\x00-\x08\x0a-\x1f\x7f]*))?$/;
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const BAD_VALUE = /[\x00-\x08\x0a-\x1f\x7f]/;
const CHUNK_SIZE = /^([0-9A-Fa-f]{1,12})(?:[ \t]*;[^\r\n]*)?$/;
const DIGITS = /^\d{1,15}$/;

type State = 'head' | 'length' | 'chunk-size' | 'chunk-data' | 'chunk-end' | 'trailers' | 'until-close' | 'done';

/**
 * The framing of one HTTP/1.1 response read from the target: status line and headers, then a body
 * delimited by Content-Length, chunked coding (decoded here) or the connection's close. It is
 * strict where a lenient reading could split one response into two or glue two together: bare LF,
 * obs-fold, bad header names, Content-Length with Transfer-Encoding, disagreeing lengths, a coding
 * other than chunked and oversize heads are errors, never guesses.
 */
export class ResponseParser {
  private state: State = 'head';
  private pending?: Buffer;
  private remaining = 0;
  private keepAlive = true;

  /** `bodyless`: the request was HEAD, so no response to it has a body whatever its headers say. */
  constructor(
    private readonly events: ResponseEvents,
    private readonly bodyless: boolean,
  ) {}

  /** Whether nothing of a response has come yet. */
  get empty(): boolean {
    return this.state === 'head' && this.pending === undefined;
  }

  /** Bytes from the connection; throws MalformedResponse. */
  feed(chunk: Buffer): void {
    let data = this.pending ? Buffer.concat([this.pending, chunk]) : chunk;
    this.pending = undefined;
    while (data.length > 0) {
      switch (this.state) {
        case 'head': {
          const end = data.indexOf(CRLF_CRLF);
          if (end === -1) return this.keep(data, MAX_HEAD_BYTES, 'response head');
          if (end > MAX_HEAD_BYTES) throw new MalformedResponse('response head larger than 64 KiB');
          this.head(data.toString('latin1', 0, end));
          data = data.subarray(end + 4);
          continue;
        }
        case 'length': {
          const part = data.length > this.remaining ? data.subarray(0, this.remaining) : data;
          this.remaining -= part.length;
          data = data.subarray(part.length);
          this.events.onBody(part);
          if (this.remaining === 0) this.end();
          continue;
        }
        case 'until-close':
          this.events.onBody(data);
          return;
        case 'chunk-size': {
          const line = this.line(data, 'chunk size');
          if (line === undefined) return;
          const match = CHUNK_SIZE.exec(line.text);
          if (!match) throw new MalformedResponse(`invalid chunk size line ${JSON.stringify(line.text.slice(0, 40))}`);
          this.remaining = Number.parseInt(match[1]!, 16);
          this.state = this.remaining === 0 ? 'trailers' : 'chunk-data';
          data = data.subarray(line.next);
          continue;
        }
        case 'chunk-data': {
          const part = data.length > this.remaining ? data.subarray(0, this.remaining) : data;
          this.remaining -= part.length;
          data = data.subarray(part.length);
          this.events.onBody(part);
          if (this.remaining === 0) this.state = 'chunk-end';
          continue;
        }
        case 'chunk-end': {
          if (data.length < 2) return this.keep(data, 2, 'chunk end');
          if (data[0] !== 0x0d || data[1] !== 0x0a) throw new MalformedResponse('chunk data not followed by CRLF');
          this.state = 'chunk-size';
          data = data.subarray(2);
          continue;
        }
        case 'trailers': {
          // Trailer fields are dropped: the browser has had its headers, and Node sends none it was not told of.
          const line = this.line(data, 'trailer');
          if (line === undefined) return;
          data = data.subarray(line.next);
          if (line.text === '') this.end();
          else if (!/^[!#$%&'*+\-.^_`|~0-9A-Za-z]+:/.test(line.text)) throw new MalformedResponse('invalid trailer field');
          continue;
        }
        case 'done':
          // More than one answer to one request: nothing after it can be trusted on this connection.
          this.keepAlive = false;
          return;
      }
    }
  }

  /** The connection ended: the end of a body that runs until close; false when that cut a response short. */
  close(): boolean {
    if (this.state === 'until-close') {
      this.keepAlive = false;
      this.end();
    }
    return this.state === 'done';
  }

  private keep(data: Buffer, limit: number, what: string): void {
    if (data.length > limit) throw new MalformedResponse(`${what} larger than ${limit} bytes`);
    this.pending = Buffer.from(data);
  }

  /** One CRLF-terminated line, or undefined (kept for the next chunk) when its end has not arrived. */
  private line(data: Buffer, what: string): {text: string; next: number} | undefined {
    const end = data.indexOf(0x0a);
    if (end === -1) {
      this.keep(data, MAX_CHUNK_LINE, `${what} line`);
      return undefined;
    }
    if (end === 0 || data[end - 1] !== 0x0d) throw new MalformedResponse(`bare LF in ${what} line`);
    if (end > MAX_CHUNK_LINE) throw new MalformedResponse(`${what} line larger than ${MAX_CHUNK_LINE} bytes`);
    return {text: data.toString('latin1', 0, end - 1), next: end + 1};
  }

  private head(text: string): void {
    const known = heads.get(text);
    const parsed = known ?? parseHead(text);
    if (known === undefined && parsed.status >= 200 && text.length <= MAX_CACHED_HEAD_LENGTH) {
      if (heads.size >= MAX_CACHED_HEADS) heads.clear();
      heads.set(text, parsed);
    }
    const {status, headers} = parsed;
    // 1xx answers (100 Continue, 103 Early Hints) are interim: the final answer follows on the same connection.
    if (status < 200) {
      if (status === 101) throw new MalformedResponse('101 Switching Protocols to a request that asked for no upgrade');
      return;
    }
    this.keepAlive = parsed.keepAlive;
    const framing = bodyFraming(headers, this.bodyless || status === 204 || status === 304);
    this.events.onHead(status, parsed.statusMessage, headers);
    if (framing === 'chunked') this.state = 'chunk-size';
    else if (framing === 'until-close') this.state = 'until-close';
    else if (framing === 0) this.end();
    else {
      this.remaining = framing;
      this.state = 'length';
    }
  }

  private end(): void {
    this.state = 'done';
    this.events.onEnd(this.keepAlive);
  }
}

/** A response head read once: its headers object is shared by every answer with the same head, so it is frozen. */
interface ParsedHead {
  status: number;
  statusMessage: string;
  headers: Readonly<IncomingHttpHeaders>;
  keepAlive: boolean;
}

// A dev server sends the same head for the same resource until its Date header ticks over: the
// last heads are kept whole, so most answers cost one map lookup instead of a split, two regular
// expressions and a lower-casing per header line. Only heads that parsed are kept, and only short
// ones (a few hundred kilobytes at most in all).
const MAX_CACHED_HEADS = 256;
const MAX_CACHED_HEAD_LENGTH = 2048;
const heads = new Map<string, ParsedHead>();

function parseHead(text: string): ParsedHead {
  const lines = text.split('\r\n');
  const statusMatch = STATUS_LINE.exec(lines[0]!);
  if (!statusMatch) throw new MalformedResponse(`invalid status line ${JSON.stringify(lines[0]!.slice(0, 80))}`);
  const status = Number(statusMatch[2]);
  const headers: IncomingHttpHeaders = {};
  for (let index = 1; index < lines.length; index++) {
    const line = lines[index]!;
    const colon = line.indexOf(':');
    const name = colon > 0 ? line.slice(0, colon) : '';
    if (!TOKEN.test(name))
      throw new MalformedResponse(line.startsWith(' ') || line.startsWith('\t') ? 'obsolete line folding' : `invalid header line ${JSON.stringify(line.slice(0, 80))}`);
    const value = line.slice(colon + 1).trim();
    if (BAD_VALUE.test(value)) throw new MalformedResponse(`control character in header ${name}`);
    add(headers, name.toLowerCase(), value);
  }
  const connection = (headers.connection ?? '').toLowerCase();
  const keepAlive = statusMatch[1] === '1' ? !/\bclose\b/.test(connection) : /\bkeep-alive\b/.test(connection);
  if (headers['set-cookie']) Object.freeze(headers['set-cookie']);
  return {status, statusMessage: statusMatch[3] ?? '', headers: Object.freeze(headers), keepAlive};
}

function add(headers: IncomingHttpHeaders, name: string, value: string): void {
  const known = headers[name];
  if (name === 'set-cookie') {
    (headers['set-cookie'] ??= []).push(value);
  } else if (known === undefined) {
    headers[name] = value;
  } else if (name === 'content-length') {
    if (known !== value) throw new MalformedResponse('conflicting Content-Length headers');
  } else {
    headers[name] = `${String(known)}, ${value}`;
  }
}

/** How the body is delimited (RFC 9112 §6.3), refusing what could be read two ways. */
function bodyFraming(headers: IncomingHttpHeaders, bodyless: boolean): number | 'chunked' | 'until-close' {
  const length = headers['content-length'];
  const coding = headers['transfer-encoding'];
  if (coding !== undefined && length !== undefined) throw new MalformedResponse('both Content-Length and Transfer-Encoding');
  if (length !== undefined && !DIGITS.test(length)) throw new MalformedResponse(`invalid Content-Length ${JSON.stringify(length.slice(0, 40))}`);
  if (coding !== undefined && coding.toLowerCase() !== 'chunked') throw new MalformedResponse(`unsupported Transfer-Encoding ${JSON.stringify(coding.slice(0, 40))}`);
  if (bodyless) return 0;
  if (coding !== undefined) return 'chunked';
  if (length !== undefined) return Number(length);
  return 'until-close';
}
