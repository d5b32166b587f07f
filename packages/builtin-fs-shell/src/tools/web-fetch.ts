import {
  type ContentBlock,
  type Tool,
  ToolError,
  type ToolResult,
  defineTool,
  fail,
  ok,
} from '@toolplane/core';
import { z } from 'zod';
import { formatBytes, isModelImage } from '../files/sniff.js';
import type { WebFormat } from '../web/convert.js';
import type { fetchPage } from '../web/fetch-page.js';
import { findAddressDenied } from '@toolplane/address-guard';
import type { ToolDeps } from './deps.js';

const input = z.object({
  url: z.string().describe('Absolute http(s) URL'),
  format: z
    .enum(['markdown', 'text', 'html'])
    .optional()
    .describe('How to return HTML pages (default markdown)'),
  max_chars: z.number().int().min(100).optional().describe('Longest text to return (default 100000)'),
});

/** Defaults of the web fetch options. */
export const WEB_FETCH_DEFAULTS = {
  maxBytes: 5 * 1024 * 1024,
  maxChars: 100_000,
  timeoutMs: 30_000,
  maxRedirects: 5,
  userAgent: 'toolplane-web-fetch/0.1 (+https://github.com/toolplane)',
} as const;

/** The `web_fetch` tool. */
export function createWebFetchTool(deps: ToolDeps): Tool {
  const options = { ...WEB_FETCH_DEFAULTS, ...deps.webFetch };
  return defineTool({
    name: 'web_fetch',
    title: 'Fetch web page',
    description:
      'GET an http(s) URL and return it as readable markdown or text (images as images). Public addresses only.',
    input,
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: true },
    sideEffect: 'network',
    groups: ['web'],
    async execute(args, ctx): Promise<ToolResult> {
      const maxChars = Math.min(args.max_chars ?? options.maxChars, options.maxChars);
      // the HTTP client (undici) and the HTML parser load with the first fetch, not with the provider
      const [{ fetchPage, shownUrl }, convert] = await Promise.all([
        import('../web/fetch-page.js'),
        import('../web/convert.js'),
      ]);
      const { decodeBody, htmlToReadable, isHtml, isTextual, parseContentType, pickEncoding } = convert;
      // A timer of this call's own, not AbortSignal.timeout(): AbortSignal.any holds its sources
      // weakly, so an AbortSignal.timeout() nothing else holds can be garbage-collected during a
      // long fetch or conversion and never fire (seen: a 12 MB page converted for 3.7 s past a
      // 1 s timeout).
      const deadline = new AbortController();
      const timer = setTimeout(() => deadline.abort(), options.timeoutMs);
      timer.unref();
      const signal = AbortSignal.any([ctx.signal, deadline.signal]);
      try {
        let page: Awaited<ReturnType<typeof fetchPage>>;
        try {
          page = await fetchPage(args.url, await deps.webAgent(), {
            maxBytes: options.maxBytes,
            maxRedirects: options.maxRedirects,
            userAgent: options.userAgent,
            signal,
          });
        } catch (error) {
          if (ToolError.isInstance(error)) throw error;
          const denied = findAddressDenied(error);
          if (denied) return fail('DENIED', `${denied.message}; web_fetch only reaches public hosts`);
          if (ctx.signal.aborted) return fail('CANCELLED', 'the fetch was cancelled');
          if (signal.aborted) return fail('TIMEOUT', `no complete response within ${options.timeoutMs} ms`);
          const message =
            error instanceof Error
              ? `${error.message}${error.cause instanceof Error ? ` (${error.cause.message})` : ''}`
              : String(error);
          if (hasErrorCode(error, 'UND_ERR_HEADERS_OVERFLOW'))
            return fail(
              'EXECUTION_FAILED',
              `could not fetch ${shownUrl(args.url)}: the response headers are larger than the client accepts (Node's maxHeaderSize, 16 KiB by default); the server sends them on every try, so fetch another page`,
              { retryable: false },
            );
          return fail('EXECUTION_FAILED', `could not fetch ${shownUrl(args.url)}: ${message}`, {
            retryable: true,
          });
        }
        const { mediaType, charset } = parseContentType(page.contentType);
        const header = `URL: ${shownUrl(page.url)}\nStatus: ${page.status}\nContent-Type: ${mediaType}${page.truncated ? `\n(body cut at ${formatBytes(options.maxBytes)})` : ''}`;
        let content: ContentBlock[];
        let encoding: string | undefined;
        if (page.body.length === 0) {
          // 204, 304, or a body left empty: nothing to show, whatever the type says.
          content = [{ type: 'text', text: `${header}\n\n(no content)` }];
        } else if (isModelImage(mediaType)) {
          if (page.truncated)
            return fail(
              'INVALID_ARGUMENTS',
              `${shownUrl(page.url)} is an image larger than ${formatBytes(options.maxBytes)}`,
            );
          content = [
            { type: 'text', text: header },
            { type: 'image', data: page.body.toString('base64'), mimeType: mediaType },
          ];
        } else if (isTextual(mediaType)) {
          encoding = pickEncoding(page.body, charset, isHtml(mediaType));
          const raw = decodeBody(page.body, encoding);
          let readable: { text: string; length: number };
          try {
            readable = isHtml(mediaType)
              ? await htmlToReadable(raw, (args.format ?? 'markdown') as WebFormat, maxChars, signal)
              : { text: raw.slice(0, maxChars), length: raw.length };
          } catch (error) {
            if (ctx.signal.aborted)
              return fail('CANCELLED', 'the fetch was cancelled while its page was converted');
            if (signal.aborted)
              return fail(
                'TIMEOUT',
                `${shownUrl(page.url)} came within ${options.timeoutMs} ms but converting it to ${args.format ?? 'markdown'} did not finish in that time; fetch it with format "html" for the markup as is`,
              );
            throw error;
          }
          const text = readable.text;
          const cut =
            readable.length > maxChars ? `\n\n(cut at ${maxChars} of ${readable.length} characters)` : '';
          content = [{ type: 'text', text: `${header}\n\n${text}${cut}` }];
        } else {
          const what = `${mediaType} (${page.truncated ? 'over ' : ''}${formatBytes(page.body.length)})`;
          // An error status matters more than the type of the error page.
          if (page.status < 400)
            return fail(
              'INVALID_ARGUMENTS',
              `${shownUrl(page.url)} is ${what}, not text or an image; web_fetch cannot show it (download it with bash, curl -o FILE URL, and open it with a tool for that type)`,
            );
          content = [{ type: 'text', text: `${header}\n\n(a body of ${what}, not shown)` }];
        }
        const structured = {
          url: page.url,
          status: page.status,
          contentType: mediaType,
          redirects: page.redirects,
          truncated: page.truncated,
          ...(encoding === undefined ? {} : { charset: encoding }),
        };
        if (page.status >= 400) {
          const code = page.status === 429 ? 'RATE_LIMITED' : 'EXECUTION_FAILED';
          return fail(code, `HTTP ${page.status} from ${shownUrl(page.url)}`, {
            content,
            details: structured,
            retryable: page.status === 429 || page.status >= 500,
          });
        }
        return ok(content, structured);
      } finally {
        clearTimeout(timer);
      }
    },
  });
}

/** Whether the error, or one of its causes, carries this `code` (undici's errors do). */
function hasErrorCode(error: unknown, code: string): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 8 && current instanceof Error; depth++) {
    if ((current as NodeJS.ErrnoException).code === code) return true;
    current = current.cause;
  }
  return false;
}
