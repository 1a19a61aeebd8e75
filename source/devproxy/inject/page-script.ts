import {randomBytes} from 'node:crypto';

/** The attribute that marks our script tag: a page that has it already is not injected again. */
export const SCRIPT_MARKER = 'data-workbench-devtool';

/** The page script prepared once per proxy; each page gets it in a tag with its own nonce. */
export class PageScript {
  private readonly open = Buffer.from('<script nonce="');
  private readonly rest: Buffer;

  constructor(source: string) {
    this.rest = Buffer.from(`" ${SCRIPT_MARKER}>${inlineSafe(source)}</script>`);
  }

  /** A fresh nonce and the tag that carries it, as the parts to splice into the page. */
  tag(): {nonce: string; parts: Buffer[]} {
    const nonce = randomBytes(16).toString('base64');
    return {nonce, parts: [this.open, Buffer.from(nonce), this.rest]};
  }
}

/**
 * Script source that survives being inlined into any page: `</script` would end the element early,
 * and non-ASCII characters would be misread in a page that is not UTF-8 (\u escapes mean the same
 * in JavaScript strings, templates, regular expressions and identifiers).
 */
function inlineSafe(source: string): string {
  return source
    .replace(/<\/(script)/gi, '<\\/$1')
    .replace(/<!--/g, '<\\!--')
    .replace(/[^\x00-\x7f]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
