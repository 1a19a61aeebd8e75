import type {Browser, Page} from 'playwright-core';
import {afterAll, beforeAll, describe, expect, it, vi} from 'vitest';
import {primitives} from '../../../source/devproxy/page-script.js';
import {channelPage, layoutPage} from './fixtures.js';
import {FixtureServer, hasChromium, launchChromium} from './harness.js';

type Devtool = Record<string, (...args: unknown[]) => unknown>;

describe.skipIf(!hasChromium)('window.__devtool on a fixture page with a known layout (headless Chromium)', () => {
  let browser: Browser;
  let server: FixtureServer;
  let page: Page;

  /** Calls a primitive in the page; the answer crosses as JSON, as exec's would. */
  const call = (name: string, ...args: unknown[]) =>
    page
      .evaluate(async ([name, args]) => JSON.stringify(await (window as unknown as {__devtool: Devtool}).__devtool[name as string](...(args as unknown[]))), [name, args] as const)
      .then((text) => (text === undefined ? undefined : JSON.parse(text)));

  beforeAll(async () => {
    browser = await launchChromium();
    server = new FixtureServer({'/layout': {html: layoutPage}, '/plain': {html: channelPage, inject: false}, '/app': {html: channelPage}});
    await server.start();
    page = await browser.newPage({viewport: {width: 800, height: 600}});
    await page.goto(`${server.origin}/layout`);
    await vi.waitFor(() => expect(server.messages('hello')).toHaveLength(1), {timeout: 15_000});
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('has at least 50 functions, each one in the reference, and every reference entry on the page', async () => {
    const names = await page.evaluate(() => {
      const devtool = (window as unknown as {__devtool: Devtool}).__devtool;
      return Object.keys(devtool).filter((name) => typeof devtool[name] === 'function');
    });
    expect(names.length).toBeGreaterThanOrEqual(50);
    expect(names).toContain('log');
    expect(names).toContain('getElementInfo');
    expect([...names].sort()).toEqual(
      primitives()
        .map((entry) => entry.name)
        .sort(),
    );
  });

  it('adds no global but __devtool', async () => {
    const other = await browser.newPage();
    await other.goto(`${server.origin}/plain`);
    const without = await other.evaluate(() => Object.getOwnPropertyNames(window));
    await other.goto(`${server.origin}/app`);
    const withScript = await other.evaluate(() => Object.getOwnPropertyNames(window));
    await other.close();
    expect(withScript.filter((name) => !without.includes(name))).toEqual(['__devtool']);
  });

  it('getElementInfo describes an element as plain data', async () => {
    expect(await call('getElementInfo', '#a')).toMatchObject({selector: '#a', tag: 'div', id: 'a', text: 'A', rect: {x: 10, y: 10, width: 100, height: 100}, position: 'absolute'});
  });

  it('measures position and box model', async () => {
    expect(await call('getPosition', '#b')).toMatchObject({viewport: {x: 60, y: 60, width: 100, height: 100}, page: {x: 60, y: 60}});
    expect(await call('getBox', '#box')).toMatchObject({
      margin: {top: 3, right: 3, bottom: 3, left: 3},
      border: {top: 2, left: 2},
      padding: {top: 5, right: 10, bottom: 5, left: 10},
      content: {width: 100, height: 40},
      border_box: {width: 124, height: 54},
    });
    expect(await call('getComputed', '#grey', ['color'])).toEqual({color: 'rgb(119, 119, 119)'});
  });

  it('finds the overlap of two boxes', async () => {
    expect(await call('checkOverlap', '#a', '#b')).toMatchObject({overlaps: true, intersection: {x: 60, y: 60, width: 50, height: 50}, area: 2500, ofA: 0.25, ofB: 0.25});
    expect(await call('checkOverlap', '#a', '#box')).toMatchObject({overlaps: false, intersection: null});
    expect(await call('measureBetween', '#a', '#box')).toMatchObject({gapX: 93, aLeftOf: true});
  });

  it('hit-tests: #b lies over #a where they overlap', async () => {
    expect(await call('elementAtPoint', 80, 80)).toMatchObject({element: {id: 'b'}});
    expect(await call('isObscured', '#a')).toMatchObject({obscured: true, by: {id: 'b'}});
    expect(await call('getStacking', '#b')).toMatchObject({zIndex: '3', formsContext: 'z-index 3 on absolute'});
  });

  it('finds the offscreen element, the overflowing scroller and the clipped label', async () => {
    const offscreen = await call('findOffscreen');
    expect(offscreen.items).toEqual([expect.objectContaining({id: 'offscreen', side: 'left'})]);
    const overflows = await call('findOverflows');
    expect(overflows.items).toEqual(
      expect.arrayContaining([expect.objectContaining({id: 'scroller', excessY: 150, clipped: false}), expect.objectContaining({id: 'clipped', clipped: true})]),
    );
    expect((await call('findTruncatedText')).items).toEqual([expect.objectContaining({id: 'clipped', textOverflow: 'ellipsis', fullText: 'A long label that does not fit'})]);
    expect(await call('getScrollInfo', '#scroller')).toMatchObject({maxScrollTop: 150, scrollable: true});
    expect((await call('findFixedElements')).items).toEqual([expect.objectContaining({id: 'fixedbar', position: 'fixed'})]);
  });

  it('tells visible from hidden, with reasons', async () => {
    expect(await call('isVisible', '#a')).toMatchObject({visible: true, reasons: []});
    expect(await call('isVisible', '#hidden')).toMatchObject({visible: false, reasons: ['display none']});
    expect(await call('isInViewport', '#offscreen')).toMatchObject({inViewport: false, ratio: 0});
    expect(await call('isInViewport', '#a')).toMatchObject({inViewport: true, fullyInViewport: true, ratio: 1});
  });

  it('computes WCAG contrast: #777 on white is 4.48:1, under AA for body text', async () => {
    expect(await call('contrastRatio', '#777', 'white')).toMatchObject({ratio: 4.48, aaNormal: false, aaLarge: true});
    expect(await call('contrastRatio', 'black', '#fff')).toMatchObject({ratio: 21});
    expect(await call('getContrast', '#grey')).toMatchObject({ratio: 4.48, foreground: '#777777', background: '#ffffff', aa: false, required: 4.5});
    expect((await call('findLowContrast')).findings).toEqual([expect.objectContaining({rule: 'color-contrast', element: expect.objectContaining({id: 'grey'})})]);
  });

  it('computes roles and accessible names', async () => {
    expect(await call('getAccessibleName', '#save')).toEqual({name: 'Save draft', source: 'aria-label'});
    expect(await call('getAccessibleName', '#email')).toEqual({name: 'Email', source: 'label'});
    expect(await call('getAccessibleName', '#withalt')).toEqual({name: 'Company logo', source: 'alt'});
    expect(await call('getAccessibleName', '#iconbutton')).toEqual({name: '', source: 'none'});
    expect(await call('getRole', 'nav')).toEqual({role: 'navigation', explicit: false});
    expect(await call('getA11yInfo', '#email')).toMatchObject({role: 'textbox', name: 'Email', states: {}, focusable: true});
  });

  it('lists the tab order: positive tabindex first, then document order', async () => {
    const order = await call('getTabOrder');
    expect(order.order.map((entry: {id?: string}) => entry.id)).toEqual(['first', 'email', 'unlabelled', 'plan', 'iconbutton', 'save', 'home', 'tiny']);
    expect(order.order[0]).toMatchObject({tabIndex: 1, name: 'First by tabindex', role: 'link'});
  });

  it('audits accessibility: the image without alt, the unlabelled input, the nameless button, the skipped heading, the duplicate id', async () => {
    const audit = await call('auditAccessibility');
    const found = (rule: string) => audit.findings.filter((finding: {rule: string}) => finding.rule === rule).map((finding: {element?: {id?: string}}) => finding.element?.id);
    expect(found('image-alt')).toEqual(['noalt']);
    // The select has no label either.
    expect(found('input-label')).toEqual(['unlabelled', 'plan']);
    expect(found('button-name')).toEqual(['iconbutton']);
    expect(found('link-name')).toEqual(['tiny']);
    expect(found('color-contrast')).toEqual(['grey']);
    expect(found('heading-order')).toHaveLength(1);
    expect(found('duplicate-id')).toEqual(['dup']);
    expect(audit.byRule['landmark-main']).toBeUndefined();
    expect(audit.error).toBeGreaterThanOrEqual(6);
    expect(await call('auditAccessibility', {checks: ['image-alt']})).toMatchObject({count: 1, checks: ['image-alt']});
    expect(await call('auditAccessibility', {checks: ['nope']})).toEqual({error: expect.stringContaining('unknown check(s) nope')});
    // The empty icon button (16×6) and the 10×10 link.
    expect((await call('findSmallTargets', 12)).items.map((item: {id?: string}) => item.id)).toEqual(['iconbutton', 'tiny']);
    // At the default 24 px, Chromium's default 21 px high fields are too small as well; inline links are not counted.
    const small = (await call('findSmallTargets')).items.map((item: {id?: string}) => item.id);
    expect(small).toEqual(expect.arrayContaining(['tiny', 'email']));
    expect(small).not.toContain('home');
    expect((await call('getLandmarks')).landmarks.map((landmark: {role: string}) => landmark.role)).toEqual(['main', 'navigation']);
    expect((await call('getHeadings')).headings).toEqual([
      {level: 1, text: 'Fixture', selector: expect.any(String)},
      {level: 3, text: 'Skipped a level', selector: expect.any(String)},
    ]);
  });

  it('measures DOM complexity and summarises forms, links and the page', async () => {
    const complexity = await call('getDomComplexity');
    expect(complexity).toMatchObject({excessive: false, tags: expect.objectContaining({div: 10})});
    expect(complexity.elements).toBeGreaterThan(30);
    expect(complexity.maxDepth).toBeGreaterThanOrEqual(5);
    expect((await call('getForms')).forms).toEqual([
      expect.objectContaining({
        action: '/signup',
        method: 'post',
        valid: false,
        fields: expect.arrayContaining([expect.objectContaining({name: 'email', type: 'email', label: 'Email', required: true, valid: false})]),
      }),
    ]);
    expect(await call('getLinks')).toMatchObject({total: 3, internal: 3, items: [expect.objectContaining({issue: 'no accessible name'})]});
    expect(await call('getPageInfo')).toMatchObject({title: 'Layout fixture', lang: 'en', doctype: 'html', readyState: 'complete'});
    expect(await call('matchMedia', '(min-width: 700px)')).toEqual({query: '(min-width: 700px)', matches: true});
    expect(await call('getViewport')).toMatchObject({innerWidth: 800, innerHeight: 600});
  });

  it('queries the DOM without a console', async () => {
    expect(await call('query', '#content p')).toMatchObject({count: 2, elements: [{id: 'grey'}, {id: 'hidden'}]});
    expect(await call('queryText', 'cookie')).toMatchObject({count: 1, elements: [{id: 'fixedbar'}]});
    expect(await call('countElements', 'img')).toEqual({selector: 'img', count: 2});
    expect(await call('findAncestor', '#email', 'form')).toMatchObject({ancestor: {id: 'signup'}});
    expect(await call('walkChildren', 'nav', 1)).toMatchObject({
      tag: 'nav',
      children: [
        {tag: 'a', id: 'home'},
        {tag: 'a', id: 'first'},
        {tag: 'a', id: 'tiny'},
      ],
    });
  });

  it('snapshots the DOM and diffs it after a change', async () => {
    expect(await call('snapshotDom', {selector: '#content', name: 'before'})).toMatchObject({name: 'before', truncated: false});
    await page.evaluate(() => {
      document.getElementById('grey')!.textContent = 'Darker text';
      document.querySelector('#content h3')!.remove();
      document.getElementById('content')!.insertAdjacentHTML('beforeend', '<aside id="toast">Saved</aside>');
    });
    const diff = await call('diffSnapshots', 'before');
    expect(diff).toMatchObject({added: 1, removed: 1, identical: false});
    expect(diff.changes).toEqual(
      expect.arrayContaining([
        expect.objectContaining({kind: 'added', path: expect.stringContaining('aside#toast')}),
        expect.objectContaining({kind: 'removed', path: expect.stringContaining('h3')}),
        expect.objectContaining({kind: 'changed', detail: expect.stringContaining('"Darker text"')}),
      ]),
    );
    expect(await call('diffSnapshots', 'missing')).toEqual({error: expect.stringContaining('no snapshot named "missing"')});
  });

  it('draws and clears overlays, which the finders then ignore', async () => {
    const contextsBefore = (await call('findStackingContexts')).count;
    const drawn = await call('highlight', '#a', {label: 'here'});
    expect(drawn).toMatchObject({id: expect.stringMatching(/^overlay-/), count: 1, rects: [{x: 10, y: 10}]});
    expect(await page.locator('[data-workbench-overlay] span').textContent()).toBe('here');
    // The overlay host is a stacking context of its own, and not the page's.
    expect((await call('findStackingContexts')).count).toBe(contextsBefore);
    expect(await call('removeHighlight', drawn.id)).toEqual({removed: drawn.id});
    expect(await call('removeHighlight', drawn.id)).toHaveProperty('error');
    await call('highlight', 'div', {all: true});
    expect(await call('clearOverlays')).toEqual({removed: 1});
    expect(await page.locator('[data-workbench-overlay]').count()).toBe(0);
  });

  it('answers performance data and layout shifts (async)', async () => {
    expect(await call('getPerformance')).toMatchObject({navigation: {type: 'navigate'}, resources: expect.any(Number)});
    expect(await call('getLayoutShifts')).toMatchObject({cls: expect.any(Number), shifts: expect.any(Array)});
  });

  it('acts on the page: fill and select fire input events, focus lands', async () => {
    expect(await call('fill', '#email', 'a@b.example')).toMatchObject({value: 'a@b.example', valid: true});
    expect(await call('selectOption', '#plan', 'Pro')).toEqual({value: 'pro', label: 'Pro'});
    expect(await call('focus', '#email')).toMatchObject({focused: true});
    expect(await call('getFocusInfo')).toMatchObject({focused: {id: 'email'}, name: 'Email'});
    expect(await call('fill', '#a', 'x')).toEqual({error: 'fill needs an input or textarea'});
  });

  it('answers garbage arguments with {error} (or plain data), never a throw or a DOM node', async () => {
    const names = primitives().map((entry) => entry.name);
    for (const args of [['<<<not a selector'], [null, {}], [12, -1], []]) {
      const results = await page.evaluate(
        async ([names, args]) => {
          const devtool = (window as unknown as {__devtool: Devtool}).__devtool;
          const out: Record<string, string> = {};
          for (const name of names as string[]) {
            if (/^(click|scrollIntoView|waitForIdle|waitForElementGone)$/.test(name)) continue;
            try {
              out[name] = JSON.stringify((await devtool[name](...(args as unknown[]))) ?? null);
            } catch (error) {
              out[name] = `THREW ${String(error)}`;
            }
          }
          return out;
        },
        [names, args] as const,
      );
      for (const [name, text] of Object.entries(results)) {
        expect(text, `${name}(${JSON.stringify(args)})`).not.toMatch(/^THREW/);
        expect(() => JSON.parse(text), name).not.toThrow();
      }
      if (args[0] === '<<<not a selector') {
        for (const name of [
          'getElementInfo',
          'getPosition',
          'getBox',
          'isVisible',
          'getContrast',
          'getAccessibleName',
          'query',
          'highlight',
          'checkOverlap',
          'waitForElement',
          'fill',
        ])
          expect(JSON.parse(results[name]), name).toEqual({error: 'invalid selector "<<<not a selector"'});
      }
    }
    expect(await call('getElementInfo', '#nothing-here')).toEqual({error: 'no element matches "#nothing-here"'});
    expect(await call('elementAtPoint', 'x', 1)).toHaveProperty('error');
    expect(await call('contrastRatio', 'not-a-colour', '#fff')).toHaveProperty('error');
    expect(await call('matchMedia', 'min-width: 10px')).toEqual({error: 'invalid media query "min-width: 10px"'});
    expect(await call('matchMedia', 42)).toHaveProperty('error');
  });
});
