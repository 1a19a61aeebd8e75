/**
 * A tool call's arguments from the JSON text the model streamed: the parsed value, or the text
 * itself when it is not JSON (the tool then answers with an error the model can act on).
 */
export function parseToolArguments(json: string): unknown {
  if (!json.trim()) return {};
  try {
    return JSON.parse(json);
  } catch {
    return json;
  }
}
