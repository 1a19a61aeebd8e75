/**
 * `size` bytes file-type reads as image/png: the signature, an IHDR chunk, then one IDAT chunk
 * holding the rest (patterned bytes; no image decoder ever reads them).
 */
export function testPng(size: number): Uint8Array<ArrayBuffer> {
  const head = Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), chunkHeader(13, 'IHDR'), Buffer.from('00000001000000010806000000', 'hex'), Buffer.alloc(4)]);
  const bytes = new Uint8Array(size);
  const idat = Math.max(0, size - head.length - 8 - 4);
  bytes.set(Buffer.concat([head, chunkHeader(idat, 'IDAT')]).subarray(0, size));
  for (let index = head.length + 8; index < size; index += 1) bytes[index] = (index * 31) % 251;
  return bytes;
}

function chunkHeader(length: number, type: string): Buffer {
  const header = Buffer.alloc(8);
  header.writeUInt32BE(length, 0);
  header.write(type, 4, 'latin1');
  return header;
}
