import { ToolError, type ToolErrorCode } from '@toolplane/core';

/**
 * The longest paging cursor taken from a server, in characters. A cursor is opaque and is sent
 * back whole with the next request: a server's cursors are an offset or a small token (real ones
 * run to a few hundred characters), and one of megabytes was held and sent back as it came,
 * through each of up to {@link MAX_PAGES} pages of a listing.
 */
export const MAX_CURSOR_LENGTH = 16_384;

/** Pages of one listing followed at most. */
export const MAX_PAGES = 1000;

/** What is said of a listing that goes past {@link MAX_PAGES} (`method`: "tools/list"). */
export function tooManyPages(method: string): string {
  return `${method} gave more than ${MAX_PAGES} pages, each with a new nextCursor: stopped; fix the server's paging`;
}

/** What is said of a cursor over {@link MAX_CURSOR_LENGTH} (`where`: "tools/list", "tools/list page 3"). */
export function cursorTooLong(where: string, length: number): string {
  return `${where} gave a nextCursor of ${length} characters, more than the ${MAX_CURSOR_LENGTH} a cursor may have here (a cursor is sent back whole with the next request): fix the server's paging`;
}

/** Whether an error's message is {@link cursorTooLong}'s. */
export function isCursorTooLong(message: string): boolean {
  return /gave a nextCursor of \d+ characters, more than the \d+ a cursor may have here/.test(message);
}

/**
 * `cursor` when it is within {@link MAX_CURSOR_LENGTH}; throws `code` naming the server, the
 * request (`where`) and the limit otherwise.
 */
export function boundedCursor(
  cursor: string | undefined,
  server: string,
  where: string,
  code: ToolErrorCode,
): string | undefined {
  if (cursor === undefined || cursor.length <= MAX_CURSOR_LENGTH) return cursor;
  throw new ToolError(code, `MCP server "${server}": ${cursorTooLong(where, cursor.length)}`, {
    details: { server, cursorLength: cursor.length, limit: MAX_CURSOR_LENGTH },
  });
}
