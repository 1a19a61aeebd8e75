import {describe, expect, it} from 'vitest';
import {insertionOffset} from '../../../source/devproxy/inject/insert-script.js';
import {looksLikeHtml} from '../../../source/devproxy/inject/looks-like-html.js';

const at = (html: string) => {
  const offset = insertionOffset(html);
  return `${html.slice(0, offset)}|${html.slice(offset)}`;
};

describe('where the page script goes', () => {
  it('before the first script of <head>', () => {
    expect(at('<!doctype html><html><head><title>t</title><SCRIPT src="a.js"></SCRIPT><script>b</script></head><body></body></html>')).toBe(
      '<!doctype html><html><head><title>t</title>|<SCRIPT src="a.js"></SCRIPT><script>b</script></head><body></body></html>',
    );
  });

  it('at the end of <head> when it has no script, not before a script of <body>', () => {
    expect(at('<html><head lang="en"><meta charset="utf-8"></head><body><script>x</script></body></html>')).toBe(
      '<html><head lang="en"><meta charset="utf-8">|</head><body><script>x</script></body></html>',
    );
  });

  it('where <body> starts when <head> has no end tag', () => {
    expect(at('<html><head><title>t</title><body><script>x</script>')).toBe('<html><head><title>t</title>|<body><script>x</script>');
  });

  it('at the start of <body> when there is no <head>, and never before the doctype', () => {
    expect(at('<!DOCTYPE html><body class="x"><p>hi</p>')).toBe('<!DOCTYPE html><body class="x">|<p>hi</p>');
    expect(at('<!doctype html>\n<html lang="en"><p>bare</p>')).toBe('<!doctype html>\n<html lang="en">|<p>bare</p>');
    expect(at('<p>fragment</p>')).toBe('|<p>fragment</p>');
  });

  it('does not take <header> for <head>', () => {
    expect(at('<body><header><script>x</script></header>')).toBe('<body>|<header><script>x</script></header>');
  });
});

describe('what counts as HTML', () => {
  it('markup does, after a BOM and white space', () => {
    expect(looksLikeHtml(Buffer.from('\ufeff  <!doctype html><p>'))).toBe(true);
    expect(looksLikeHtml(Buffer.from('<div>x</div>'))).toBe(true);
  });

  it('JSON, plain text and binary labelled text/html do not', () => {
    expect(looksLikeHtml(Buffer.from('{"html":"<p>"}'))).toBe(false);
    expect(looksLikeHtml(Buffer.from('[1,2]'))).toBe(false);
    expect(looksLikeHtml(Buffer.from('just text'))).toBe(false);
    expect(looksLikeHtml(Buffer.from([0x3c, 0x00, 0x01, 0x02]))).toBe(false);
  });
});
