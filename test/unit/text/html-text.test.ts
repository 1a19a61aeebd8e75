import {describe, expect, it} from 'vitest';
import {decodeEntities} from '../../../source/text/entities.js';
import {htmlTitle, htmlToLine} from '../../../source/text/html-text.js';

describe('decodeEntities (fb55 entities, strict)', () => {
  it('resolves numeric, XML and HTML named references; needs the semicolon', () => {
    expect(decodeEntities('Tom &amp; Jerry &lt;3 &eacute;t&eacute; &hearts; &#x41;&#66; &apos;')).toBe("Tom & Jerry <3 été ♥ AB '");
    expect(decodeEntities('?a=1&copy=2 &copy AT&T;')).toBe('?a=1&copy=2 &copy AT&T;');
  });

  it('follows HTML for C1 and broken code points', () => {
    expect(decodeEntities('&#146;&#0;&#xD800;&#x110000;')).toBe('’\ufffd\ufffd\ufffd');
  });
});

describe('htmlToLine', () => {
  it('one line: tags out, blocks separate words, inline ones join, scripts and head hidden', () => {
    expect(htmlToLine('<head><title>T</title></head><p>a<b>b</b></p><p>c</p><script>x()</script><!-- c -->&nbsp;d')).toBe('ab c \u00a0d');
  });

  it('an unclosed <head> hides nothing; an unclosed <script> hides the rest', () => {
    expect(htmlToLine('<head><p>shown</p>')).toBe('shown');
    expect(htmlToLine('a<script>b')).toBe('a');
    expect(htmlToLine('a < b')).toBe('a < b');
  });

  it('htmlTitle reads the <title> a body-less error page names itself by', () => {
    expect(htmlTitle('<html><head><title>502 &amp; co</title></head><body></body></html>')).toBe('502 & co');
    expect(htmlTitle('<p>no title</p>')).toBe('');
  });
});
