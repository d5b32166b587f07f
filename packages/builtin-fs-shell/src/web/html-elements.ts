// How the converter treats HTML elements, by name (lower case).

/** Elements whose content is not shown. */
export const HIDDEN = new Set([
  'script',
  'style',
  'noscript',
  'template',
  'iframe',
  'svg',
  'math',
  'head',
  'title',
  'object',
  'canvas',
  'select',
  'datalist',
]);

/** Elements that start and end a block with a blank line. */
export const PARAGRAPHS = new Set([
  'p',
  'pre',
  'blockquote',
  'table',
  'figure',
  'hr',
  'dl',
  'details',
  'fieldset',
]);

/** Elements that start and end on a line of their own. */
export const BLOCKS = new Set([
  'div',
  'section',
  'article',
  'main',
  'header',
  'footer',
  'nav',
  'aside',
  'address',
  'figcaption',
  'form',
  'summary',
  'dt',
  'dd',
  'center',
  'caption',
  'tr',
  'li',
  'ul',
  'ol',
  'menu',
  'body',
  'html',
  'legend',
  'hgroup',
  'search',
]);

/**
 * Heading levels. A Map, not an object: element names come from the page, and `constructor`
 * looked up in an object literal finds Object's constructor (an element `<constructor>` was
 * taken for a heading).
 */
export const HEADINGS = new Map([
  ['h1', 1],
  ['h2', 2],
  ['h3', 3],
  ['h4', 4],
  ['h5', 5],
  ['h6', 6],
]);
export const STRONG = new Set(['strong', 'b']);
export const EMPHASIS = new Set(['em', 'i', 'cite', 'dfn']);
export const CODE = new Set(['code', 'kbd', 'samp', 'tt']);
