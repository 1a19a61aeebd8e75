import {toTerminalLine} from '../text/terminal-safe.js';
import {compactMessage} from './format.js';
import type {IncidentStory} from './story.js';

/**
 * An incident's story in a few lines: how its parts were joined, then one line per part —
 *
 *     story (trace 4bf92f3577b34da6a3ce929d0e0e4736):
 *       browser  TypeError: Cannot read properties of undefined (reading 'id') → src/App.tsx:42:7
 *       request  POST /api/cart → 500 database is locked
 *       server   process:api TypeError: Cannot read properties … → src/routes/cart.js:41:18
 *
 * `whole` adds each part's stack frames under it (one incident asked for by id).
 */
export function storyLines(story: IncidentStory, whole = false): string[] {
  const trace = story.request.trace_id;
  const lines = [story.joined_by === 'trace' && trace ? `story (trace ${trace}):` : story.browser ? 'story (same page, within 2s):' : 'story (within 2s):'];
  const part = (name: string, text: string, location: string, frames: string[]) => {
    lines.push(toTerminalLine(`  ${name.padEnd(8)} ${compactMessage(text)}${location ? ` → ${location}` : ''}`));
    if (whole) for (const frame of frames) lines.push(toTerminalLine(`             ${frame}`));
  };
  const {browser, request, server} = story;
  if (browser) part('browser', browser.message ? `${browser.category}: ${browser.message}` : browser.category, browser.location, browser.stack);
  const status = request.status === 0 ? 'no response' : String(request.status);
  part('request', `${request.method} ${request.url} → ${status}${request.message ? ` ${request.message}` : ''}`, '', []);
  if (server) part('server', `${server.source} ${server.category}: ${server.message}`, server.location, server.frames);
  return lines;
}
