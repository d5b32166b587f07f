import { Parser } from 'htmlparser2';

/**
 * Elements open at once, at most, in the parser; an element opened deeper is flattened: it is
 * not put on the parser's stack, its content belongs to the element it is in, and its end tag
 * just ends it. The parser looks every end tag up among the open elements (and adds one at the
 * front of its list), so this bounds the work per tag and keeps a page of 100 000 nested
 * elements linear; browsers stop nesting at a similar depth (Chromium: 512).
 */
export const MAX_HTML_DEPTH = 256;

/** What the converter hears: htmlparser2's events, plus those of flattened elements. */
export interface DepthBoundHandler {
  /** An element on the stack opened (void elements too: they close at once). */
  onopentag(name: string, attributes: Record<string, string>): void;
  onclosetag(name: string): void;
  ontext(data: string): void;
  /** An element opened past the bound: its content goes on in the element it is in. */
  onflatopen(name: string, attributes: Record<string, string>): void;
  /** The end tag of a flattened element. */
  onflatclose(name: string): void;
  /** An element on the stack closed while flattened elements were open: they are all ended. */
  onflatreset(): void;
}

type Opening = 'element' | 'void' | 'flat';

/**
 * The bookkeeping of {@link DepthBoundParser}. htmlparser2 asks `isVoidElement` (its documented
 * hook for more void elements) three times around a tag, always in this order: for a start tag
 * before putting it on its stack (answered from the depth), then right after the tag's
 * `onopentag` event (answered as before, so the element is closed at once), and for an end tag
 * before looking it up (answered "void" when it ends a flattened element, so the parser leaves
 * its stack alone). A flattened element is an element the parser takes for void.
 */
class Bound {
  /** Elements on the parser's stack, counted from its events. */
  private depth = 0;
  /** Flattened elements whose end tag has not come, by name (a Map: names come from the page). */
  private readonly flat = new Map<string, number>();
  private flatOpen = 0;
  /** How the start tag being read is handled, and whether its `onopentag` is still to come. */
  private opening: Opening = 'element';
  private openingPending = false;
  /** The next `isVoidElement` call is the one after an `onopentag`. */
  private afterOpenTag = false;
  /** The next close event is the immediate close of a void or flattened element. */
  private closesAtOnce = false;
  private closing: Opening = 'element';
  /** The next `isVoidElement` call is about an end tag's name. */
  endTag = false;

  constructor(
    private readonly handler: DepthBoundHandler,
    private readonly maxDepth: number,
  ) {}

  isVoid(name: string, naturallyVoid: boolean): boolean {
    if (this.endTag) {
      this.endTag = false;
      if (naturallyVoid) return true;
      const open = this.flat.get(name);
      if (open === undefined) return false;
      if (open === 1) this.flat.delete(name);
      else this.flat.set(name, open - 1);
      this.flatOpen--;
      this.handler.onflatclose(name);
      return true;
    }
    if (this.afterOpenTag) {
      this.afterOpenTag = false;
      this.closesAtOnce = this.closing !== 'element';
      return this.closing !== 'element';
    }
    // The ignored second <form> asks with an empty name, with no event before or after.
    if (name === '') return naturallyVoid;
    if (naturallyVoid) this.opening = 'void';
    else if (this.depth >= this.maxDepth) {
      this.opening = 'flat';
      this.flat.set(name, (this.flat.get(name) ?? 0) + 1);
      this.flatOpen++;
    } else {
      this.opening = 'element';
      this.depth++;
    }
    this.openingPending = true;
    return this.opening !== 'element';
  }

  readonly callbacks = {
    onopentag: (name: string, attributes: Record<string, string>): void => {
      // A start tag the parser makes up (`</br>` is a <br>) comes with no question before it.
      const kind: Opening = this.openingPending ? this.opening : 'void';
      if (this.openingPending) this.afterOpenTag = true;
      else this.closesAtOnce = true;
      this.openingPending = false;
      this.closing = kind;
      if (kind === 'flat') this.handler.onflatopen(name, attributes);
      else this.handler.onopentag(name, attributes);
    },
    onclosetag: (name: string): void => {
      if (this.openingPending) {
        // A start tag cut off by the end of the page: the parser closes what never opened.
        this.openingPending = false;
        if (this.opening === 'element') this.depth--;
        return;
      }
      if (this.closesAtOnce) {
        this.closesAtOnce = false;
        // A flattened element stays open until its end tag (or its ancestor's).
        if (this.closing !== 'flat') this.handler.onclosetag(name);
        return;
      }
      this.depth--;
      if (this.flatOpen > 0) {
        this.flat.clear();
        this.flatOpen = 0;
        this.handler.onflatreset();
      }
      this.handler.onclosetag(name);
    },
    ontext: (data: string): void => this.handler.ontext(data),
  };
}

/**
 * htmlparser2's parser (entities decoded, names lower-cased) with at most
 * {@link MAX_HTML_DEPTH} elements open; deeper ones are flattened and reported apart.
 */
export class DepthBoundParser extends Parser {
  private readonly bound: Bound;

  constructor(handler: DepthBoundHandler, maxDepth = MAX_HTML_DEPTH) {
    const bound = new Bound(handler, maxDepth);
    super(bound.callbacks, { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true });
    this.bound = bound;
  }

  protected override isVoidElement(name: string): boolean {
    return this.bound.isVoid(name, super.isVoidElement(name));
  }

  /** @internal The tokenizer's end tag: the next `isVoidElement` question is about its name. */
  override onclosetag(start: number, endIndex: number): void {
    this.bound.endTag = true;
    try {
      super.onclosetag(start, endIndex);
    } finally {
      this.bound.endTag = false;
    }
  }
}
