import {beforeAll, describe, expect, it} from 'vitest';
import {call, pageIdFrom, useEngineWithFixtures} from '../../helpers/engine.js';

const fx = useEngineWithFixtures({
  routes: server => {
    server.route('/styles/site.css', (_request, response) => {
      response.writeHead(200, {'Content-Type': 'text/css', 'Cache-Control': 'no-store'});
      response.end('.card {\n  font-weight: bold;\n  margin: 3px;\n}\n');
    });
  },
});

interface Opened {
  pageId: number;
  snapshot: string;
}

async function open(path: string): Promise<Opened> {
  const pageId = await fx.openPage(path);
  // Verbose: the plain text nodes that stand for their elements are pruned otherwise.
  const snapshot = await call(fx.client, 'take_snapshot', {pageId, verbose: true});
  return {pageId, snapshot: snapshot.text};
}

function uidOf(snapshot: string, text: string): string {
  const uid = new RegExp(`^ *(\\d+) (?:StaticText )?"${text}"`, 'm').exec(snapshot)?.[1];
  if (uid === undefined) {
    throw new Error(`No text "${text}" in:\n${snapshot}`);
  }
  return uid;
}

async function styles(
  page: Opened,
  text: string,
  paging: {pageSize?: number; pageIdx?: number} = {pageSize: 100},
): Promise<string> {
  const result = await call(fx.client, 'get_css_styles', {
    pageId: page.pageId,
    uid: uidOf(page.snapshot, text),
    ...paging,
  });
  expect(result.isError, result.text).toBe(false);
  return result.text;
}

/** The text of the block whose header line contains `header`, up to its closing brace. */
function block(text: string, header: string): string {
  const lines = text.split('\n');
  const start = lines.findIndex(line => line.includes(header) && line.endsWith('{'));
  if (start === -1) {
    throw new Error(`No block "${header}" in:\n${text}`);
  }
  const indent = /^ */.exec(lines[start] ?? '')?.[0].length ?? 0;
  const end = lines.findIndex((line, index) => index > start && line === `${' '.repeat(indent)}}`);
  return lines.slice(start, end + 1).join('\n');
}

async function computed(page: Opened, selector: string, properties: string[]): Promise<string[]> {
  const result = await call(fx.client, 'evaluate_script', {
    pageId: page.pageId,
    function: `() => { const s = getComputedStyle(document.querySelector(${JSON.stringify(selector)})); return ${JSON.stringify(properties)}.map(p => s.getPropertyValue(p)); }`,
  });
  const json = /```json\n([\s\S]*?)\n```/.exec(result.text)?.[1] ?? 'null';
  const values: unknown = JSON.parse(json);
  if (!Array.isArray(values)) {
    throw new Error(result.text);
  }
  return values.map(String);
}

describe('get_css_styles cascade', () => {
  let page: Opened;
  let text: string;

  beforeAll(async () => {
    page = await open('/css-cascade.html');
    text = await styles(page, 'CARD TEXT');
  });

  it('names the element (a text uid resolves to its element) and lists the inline style first', () => {
    expect(text).toMatch(
      /^Styles for div#box \(uid: "\d+"\):\nShowing 1-\d+ of \d+ \(Page 1 of 1\)\.\nelement\.style \{\n {2}color: orange;\n {2}padding-left: 9px;\n\}/,
    );
  });

  it('orders rules by specificity and marks what the inline style and !important override', () => {
    const byId = block(text, '#box (/css-cascade.html:10)');
    expect(byId).toContain('[overloaded] color: green;');
    // padding-left comes from the inline style; the other sides still come from #box.
    expect(byId).toContain('[partly overloaded: padding-left] padding: 2px;');
    // .card's !important margin-top beats the more specific #box.
    expect(byId).toContain('[overloaded] margin-top: 2px;');
    const byClass = block(text, '.card (/css-cascade.html:9)');
    expect(byClass).toContain('[overloaded] color: blue;');
    expect(byClass).toContain('\n  margin-top: 1px !important;');
    expect(text.indexOf('#box (/css-cascade.html:10)')).toBeLessThan(
      text.indexOf('.wrap .card (/css-cascade.html:11)'),
    );
    expect(text.indexOf('.wrap .card')).toBeLessThan(text.indexOf('.card (/css-cascade.html:9)'));
  });

  it('shows linked stylesheets by path with their line, and partial overrides of shorthands', () => {
    const linked = block(text, '.card (/styles/site.css:1)');
    expect(linked).toContain('\n  font-weight: bold;');
    expect(linked).toContain('[partly overloaded: margin-top] margin: 3px;');
  });

  it('wraps rules in their @media, @supports, @scope, @container and @layer rules', () => {
    expect(text).toContain(
      '@media (min-width: 1px) {\n  .card (/css-cascade.html:13) {\n    background-color: yellow;\n  }\n}',
    );
    expect(text).toContain(
      '@supports (display: grid) {\n  .card (/css-cascade.html:23) {\n    display: block;\n  }\n}',
    );
    expect(text).toContain(
      '@scope (.wrap) {\n  .card (/css-cascade.html:26) {\n    text-transform: uppercase;\n  }\n}',
    );
    expect(text).toContain(
      '@container (min-width: 10px) /* container: .container */ {\n  .card (/css-cascade.html:30) {',
    );
    expect(text).toContain('@layer base {\n  #box (/css-cascade.html:17) {');
    expect(text).toContain('@layer theme {\n  #box (/css-cascade.html:20) {');
  });

  it('gets !important across layers right: the earlier layer wins (as the browser computes)', async () => {
    expect(block(text, '#box (/css-cascade.html:17)')).toContain(
      '\n    outline-color: red !important;',
    );
    expect(block(text, '#box (/css-cascade.html:17)')).toContain(
      '[overloaded] letter-spacing: 1px;',
    );
    expect(block(text, '#box (/css-cascade.html:20)')).toContain(
      '[overloaded] outline-color: blue !important;',
    );
    expect(block(text, '#box (/css-cascade.html:20)')).toContain('\n    letter-spacing: 2px;');
    expect(await computed(page, '#box', ['outline-color', 'letter-spacing', 'margin-top'])).toEqual(
      ['rgb(255, 0, 0)', '2px', '1px'],
    );
  });

  it('lists user-agent rules last, with only the selector that matched', () => {
    const ua = block(text, 'div (user agent stylesheet)');
    expect(ua).toContain('[overloaded] display: block;');
    expect(ua).toContain('unicode-bidi: isolate;');
    expect(text).not.toContain('blockquote');
  });

  it('shows inherited styles per ancestor, only inheritable declarations, shadowed ones overloaded', () => {
    expect(text).toContain(
      'Inherited from .wrap:\n.wrap (/css-cascade.html:33) {\n  line-height: 2;\n}',
    );
    expect(text).not.toContain('margin: 5px');
    expect(text).toContain(
      'Inherited from body:\nbody (/css-cascade.html:8) {\n  [overloaded] color: black;\n  font-family: serif;\n}',
    );
    expect(text).toContain(
      'Inherited from html:\n:root (/css-cascade.html:7) {\n  --brand: rgb(255, 0, 0);\n  --gap: 4px;\n}',
    );
  });

  it('resolves custom properties used by winning declarations', () => {
    expect(text).toContain('border-top-color: var(--brand); /* = rgb(255, 0, 0) */');
  });

  it('lists pseudo-element rules under their own heading', () => {
    expect(text).toContain(
      'Pseudo-element ::before:\n.card::before (/css-cascade.html:32) {\n  content: "*";\n  color: teal;\n}',
    );
  });

  it('pages by rule: default 10 per page, next/previous hints, invalid pages fall back', async () => {
    const total = Number(/Showing 1-\d+ of (\d+)/.exec(text)?.[1]);
    expect(total).toBeGreaterThan(10);
    const first = await styles(page, 'CARD TEXT', {});
    expect(first).toContain(`Showing 1-10 of ${total} (Page 1 of 2).\nNext page: 1\n`);
    expect(first).not.toContain('Inherited from');
    const second = await styles(page, 'CARD TEXT', {pageIdx: 1});
    expect(second).toContain(`Showing 11-${total} of ${total} (Page 2 of 2).\nPrevious page: 0\n`);
    expect(second).toContain('Inherited from body:');
    expect(second).not.toContain('element.style');
    // The two pages together are the whole list.
    const body = (page: string): string =>
      page
        .split('\n')
        .filter(line => !/^(Styles for|Showing|Next page|Previous page)/.test(line))
        .join('\n');
    expect(`${body(first)}\n${body(second)}`).toBe(body(text));

    const small = await styles(page, 'CARD TEXT', {pageSize: 3, pageIdx: 2});
    expect(small).toContain(`Showing 7-9 of ${total}`);
    const invalid = await styles(page, 'CARD TEXT', {pageIdx: 99});
    expect(invalid).toContain('Invalid page number provided. Showing first page.\nShowing 1-10');
  });

  it('fits in no more characters than chrome-devtools-mcp needs for the same element', () => {
    // chrome-devtools-mcp 1.11 answers 1,763 characters for this element with pageSize 100.
    expect(text.length).toBeLessThanOrEqual(1763);
  });
});

describe('get_css_styles edge cases', () => {
  let page: Opened;

  beforeAll(async () => {
    page = await open('/css-edge.html');
  });

  it('lets "inherit" pass an ancestor value through, and keeps non-inheriting custom properties out', async () => {
    const text = await styles(page, 'Inner text');
    expect(text).toContain(
      '#inner (/css-edge.html:9) {\n  color: inherit;\n  font-style: normal;\n}',
    );
    expect(text).toContain('Inherited from div#outer:\nelement.style {\n  color: purple;\n}');
    expect(text).toContain('[overloaded] font-style: italic;');
    expect(text).toContain(':root (/css-edge.html:7) {\n  --deep: 1px;\n}');
    expect(text).not.toContain('--flat: 5px');
    expect(text).toContain(
      "@property --flat (/css-edge.html:6) {\n  syntax: '<length>';\n  inherits: false;",
    );
  });

  it('marks duplicate and invalid declarations in one rule', async () => {
    const text = await styles(page, 'Twice');
    expect(text).toContain(
      '.twice (/css-edge.html:10) {\n  [overloaded] color: red;\n  color: blue;\n  [invalid] colr: red;\n}',
    );
    // The user-agent rules for p are merged into one block.
    expect(text.match(/^p \(user agent stylesheet\)/gm)).toHaveLength(1);
  });

  it('shows the parent rule of nested CSS, keyframes of animations, and attribute styles', async () => {
    expect(await styles(page, 'Nested child')).toContain(
      '.nest {\n  .child (/css-edge.html:12) {\n    color: navy;',
    );
    expect(await styles(page, 'Animated')).toContain(
      '@keyframes pulse (/css-edge.html:15) {\n  0% {\n    opacity: 0;\n  }\n  100% {\n    opacity: 1;\n  }\n}',
    );
    expect(await styles(page, 'Legacy font')).toContain(
      'font[attributes style] {\n  color: rgb(0, 128, 0);\n}',
    );
  });

  it('cuts very long values short', async () => {
    const text = await styles(page, 'Long value');
    expect(text).toMatch(/background-image: url\("data:image\/svg\+xml,.{200,}…\(\d+ chars\);/);
  });

  it('answers with the reference error texts for missing, unknown and stale uids', async () => {
    const fresh = await call(fx.client, 'new_page', {url: fx.server.url('/css-edge.html?fresh')});
    const freshId = pageIdFrom(fresh.text, 'css-edge.html?fresh');
    const noSnapshot = await call(fx.client, 'get_css_styles', {pageId: freshId, uid: '1_1'});
    expect(noSnapshot.isError).toBe(true);
    expect(noSnapshot.text).toContain(
      `No snapshot found for page ${freshId}. Use take_snapshot to capture one.`,
    );

    const unknown = await call(fx.client, 'get_css_styles', {pageId: page.pageId, uid: '999_999'});
    expect(unknown.isError).toBe(true);
    expect(unknown.text).toContain(`Element uid "999_999" not found on page ${page.pageId}.`);

    const uid = uidOf(page.snapshot, 'Twice');
    await call(fx.client, 'navigate_page', {pageId: page.pageId, type: 'reload'});
    const stale = await call(fx.client, 'get_css_styles', {pageId: page.pageId, uid});
    expect(stale.isError).toBe(true);
    expect(stale.text).toContain('no longer exists on the page');
    expect(stale.text).toContain('take_snapshot');
  });
});
