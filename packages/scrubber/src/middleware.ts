import {
  type ContentBlock,
  type Middleware,
  type ProgressUpdate,
  type ToolCall,
  type ToolResult,
  describeInvalidResult,
  extendContext,
  fail,
  failFromError,
} from '@toolplane/core';
import type { Scrubber } from './scrubber.js';
import type { Finding } from './types.js';

/** Options of {@link scrubberMiddleware}. */
export interface ScrubberMiddlewareOptions {
  /** Told the findings of each call that had any (kinds and positions only, never values). */
  readonly onFindings?: (findings: readonly Finding[], call: ToolCall) => void;
}

/** Appends findings one by one: spreading 100,000+ of them into `push` overflows the stack. */
function collect(found: Finding[], findings: readonly Finding[]): void {
  for (const finding of findings) found.push(finding);
}

function scrubBlock(block: ContentBlock, scrubber: Scrubber, found: Finding[]): ContentBlock {
  const text = (value: string): string => {
    const outcome = scrubber.scrub(value);
    collect(found, outcome.findings);
    return outcome.text;
  };
  switch (block.type) {
    case 'text':
      return { ...block, text: text(block.text) };
    case 'image':
    case 'audio':
      return { ...block, data: scrubber.scrubExact(block.data, { base64: true }) };
    case 'resource': {
      const resource = { ...block.resource, uri: text(block.resource.uri) };
      if (block.resource.text !== undefined) resource.text = text(block.resource.text);
      if (block.resource.blob !== undefined)
        resource.blob = scrubber.scrubExact(block.resource.blob, { base64: true });
      return { ...block, resource };
    }
    case 'resource_link': {
      const link = { ...block, uri: text(block.uri) };
      if (block.description !== undefined) link.description = text(block.description);
      return link;
    }
    default:
      return block;
  }
}

/**
 * Scrubs content blocks; runs of consecutive text blocks are scrubbed as one text (a tool that
 * splits output into several blocks may split a secret too).
 */
function scrubContent(blocks: readonly ContentBlock[], scrubber: Scrubber, found: Finding[]): ContentBlock[] {
  const out: ContentBlock[] = [];
  let index = 0;
  while (index < blocks.length) {
    const block = blocks[index] as ContentBlock;
    if (block.type !== 'text') {
      out.push(scrubBlock(block, scrubber, found));
      index++;
      continue;
    }
    let end = index;
    while (end < blocks.length && blocks[end]?.type === 'text') end++;
    const run = blocks.slice(index, end) as Extract<ContentBlock, { type: 'text' }>[];
    const scrubbed = scrubber.scrubPieces(run.map((text) => text.text));
    collect(found, scrubbed.findings);
    for (let position = 0; position < run.length; position++)
      out.push({
        ...(run[position] as ContentBlock),
        text: scrubbed.pieces[position] as string,
      } as ContentBlock);
    index = end;
  }
  return out;
}

function scrubResult(result: ToolResult, scrubber: Scrubber, found: Finding[]): ToolResult {
  const content = result.content === undefined ? undefined : scrubContent(result.content, scrubber, found);
  if (result.ok) {
    const scrubbed = { ...result, content: content ?? [] };
    if (result.structured !== undefined) scrubbed.structured = scrubber.scrubValue(result.structured);
    return scrubbed;
  }
  const message = scrubber.scrub(result.error.message);
  collect(found, message.findings);
  const error = { ...result.error, message: message.text };
  if (result.error.details !== undefined) error.details = scrubber.scrubValue(result.error.details);
  return content === undefined ? { ...result, error } : { ...result, error, content };
}

/**
 * The scrubber as orchestrator middleware (`phase: 'transform'`): redacts result content,
 * structured data, error messages and details, and progress messages before anything reaches
 * the model or the user. Binary payloads (image/audio data, resource blobs) are searched for
 * the exact secret values only.
 *
 * @example
 * orchestrator.use(scrubberMiddleware(createScrubber({ secrets: provider.secretValues() })));
 */
export function scrubberMiddleware(scrubber: Scrubber, options: ScrubberMiddlewareOptions = {}): Middleware {
  return {
    name: 'scrubber',
    phase: 'transform',
    async handle(call, next) {
      const original = call.ctx;
      const progress = (update: ProgressUpdate): void => {
        if (update?.message === undefined) original.progress(update);
        // A message that is not a string (a plain-JS tool) is scrubbed as text, not thrown back into the tool.
        else original.progress({ ...update, message: scrubber.scrubText(String(update.message)) });
      };
      let result: ToolResult;
      try {
        // extendContext, not a spread: a context's `signal` may be an accessor on its prototype.
        result = await next({ ...call, ctx: extendContext(original, { progress }) });
      } catch (error) {
        result = failFromError(error);
      }
      // A malformed result cannot be checked part by part (a string as `content` would be
      // scrubbed one character at a time): it is withheld.
      const problem = describeInvalidResult(result);
      if (problem !== undefined)
        return fail(
          'INTERNAL',
          `the tool returned a malformed result (${problem}); the scrubber withheld it: fix the provider or the middleware before the scrubber`,
        );
      const found: Finding[] = [];
      try {
        const scrubbed = scrubResult(result, scrubber, found);
        if (found.length > 0) options.onFindings?.(found, call);
        return scrubbed;
      } catch (error) {
        return failFromError(error, 'INTERNAL');
      }
    },
  };
}
