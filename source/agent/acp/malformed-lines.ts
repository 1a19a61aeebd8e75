/**
 * The SDK's newline-delimited JSON reader answers a line that is not JSON with a parse error to
 * the agent and drops it, saying nothing on our side: if that line was the answer we wait for,
 * the turn would hang with the user none the wiser. This passes the agent's stdout through
 * unchanged and reports each complete line that does not parse as JSON.
 */
export function watchForMalformedLines(output: ReadableStream<Uint8Array>, onMalformed: (line: string) => void, maxLineBytes = 64 * 1024 * 1024): ReadableStream<Uint8Array> {
  const decoder = new TextDecoder();
  let partial = '';
  let skipping = false;
  const check = (line: string) => {
    const text = line.trim();
    if (!text) return;
    try {
      JSON.parse(text);
    } catch {
      onMalformed(text);
    }
  };
  return output.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        controller.enqueue(chunk);
        const lines = (partial + decoder.decode(chunk, {stream: true})).split('\n');
        partial = lines.pop() ?? '';
        for (const line of lines) {
          // The rest of a line too long to check: the SDK rejects it itself (MessageTooLargeError).
          if (skipping) skipping = false;
          else check(line);
        }
        if (partial.length > maxLineBytes) {
          partial = '';
          skipping = true;
        }
      },
      flush() {
        if (!skipping) check(partial + decoder.decode());
      },
    }),
  );
}

/** A bad line as a row can show it: the start of it, on one line. */
export function excerpt(line: string, max = 120): string {
  return line.length > max ? `${line.slice(0, max)}…` : line;
}
