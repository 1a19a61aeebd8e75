import type {OutgoingHttpHeaders} from 'node:http';

/**
 * A request's head as the target receives it, one string for one write. Names and values come from
 * Node's parser, which has refused CR, LF and NUL in them, so nothing here can split the head.
 */
export function requestHead(method: string, path: string, headers: OutgoingHttpHeaders, chunked: boolean): string {
  let head = `${method} ${path} HTTP/1.1\r\n`;
  for (const name in headers) {
    const value = headers[name];
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const item of value) head += `${name}: ${item}\r\n`;
    else head += `${name}: ${value}\r\n`;
  }
  if (chunked) head += 'transfer-encoding: chunked\r\n';
  return `${head}\r\n`;
}
