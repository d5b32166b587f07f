import { type Stats, constants } from 'node:fs';
import { type FileHandle, lstat, open } from 'node:fs/promises';
import { join } from 'node:path';
import { type LineIndexCache, versionOf } from '../files/line-index.js';
import type { FileHits, LineHit } from './results.js';

/** Files smaller than this are left out: a read anywhere in them is fast without help. */
export const LINE_STARTS_MIN_BYTES = 8 * 1024 * 1024;

/** Files, and lines per file (spread over the file), a search hands to the index at most. */
const MAX_FILES = 16;
const MAX_LINES_PER_FILE = 64;
/** Bytes of a line compared with the file before its start is believed. */
const CHECKED_PREFIX_BYTES = 64;
/**
 * A file whose status changed this close to the search's start (or after it) is left out: the
 * search may have seen another version. Wide enough for file systems with coarse timestamps.
 */
const SETTLED_MS = 2000;

/** What a search found (lines with byte offsets), for {@link rememberLineStarts}. */
export interface FoundLines {
  readonly files: readonly FileHits[];
  /** The real directory the hits' paths are relative to. */
  readonly directory: string;
  readonly index: LineIndexCache;
  /** When the search started (milliseconds since the epoch). */
  readonly startedAt: number;
  readonly signal?: AbortSignal;
}

/**
 * Gives the line index where the lines a search reported start in large files, so a read near
 * a match counts from there instead of from the start of the file. Only what is certain is
 * kept: the file has not changed since before the search (its status change time, which no
 * one can set back, is older), and each line's start is checked against the file (the byte
 * before it is "\n" and its first bytes are the line's text; ripgrep's offsets would not match
 * a file it decoded, such as one with a byte order mark). Returns the lines handed over.
 */
export async function rememberLineStarts(found: FoundLines): Promise<number> {
  let remembered = 0;
  const files = found.files.filter((file) => file.lines.some((hit) => hit.offset !== undefined));
  for (const file of files.slice(0, MAX_FILES)) {
    if (found.signal?.aborted) break;
    remembered += await rememberFile(found, file);
  }
  return remembered;
}

/** Whether a file is large and unchanged since well before the search began. */
function worthIt(info: Stats, startedAt: number): boolean {
  return info.isFile() && info.size >= LINE_STARTS_MIN_BYTES && info.ctimeMs < startedAt - SETTLED_MS;
}

async function rememberFile(found: FoundLines, file: FileHits): Promise<number> {
  const path = join(found.directory, file.path);
  // A stat first: most files a search lists are small, and need not be opened.
  const seen = await lstat(path).catch(() => undefined);
  if (!seen || !worthIt(seen, found.startedAt)) return 0;
  let handle: FileHandle;
  try {
    handle = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch {
    return 0; // gone or replaced since the search: nothing to tell
  }
  try {
    const info = await handle.stat();
    if (!worthIt(info, found.startedAt)) return 0;
    const version = versionOf(info);
    let remembered = 0;
    for (const hit of spread(file.lines, MAX_LINES_PER_FILE)) {
      // One line that does not match the file means its offsets are not this file's bytes.
      if (!(await startsThere(handle, hit, info.size))) return remembered;
      found.index.record(path, version, hit.offset as number, hit.line - 1);
      remembered++;
    }
    return remembered;
  } catch {
    return 0; // an unreadable file only misses the help
  } finally {
    await handle.close();
  }
}

/** Up to `most` hits with offsets, evenly spread over the list. */
function spread(lines: readonly LineHit[], most: number): LineHit[] {
  const known = lines.filter(
    (hit) => Number.isSafeInteger(hit.offset) && Number.isSafeInteger(hit.line) && hit.line >= 1,
  );
  if (known.length <= most) return known;
  const step = known.length / most;
  return Array.from({ length: most }, (_, slot) => known[Math.floor(slot * step)] as LineHit);
}

/** Whether the file holds the hit's line at its offset, right after a "\n" (or at the start). */
async function startsThere(handle: FileHandle, hit: LineHit, size: number): Promise<boolean> {
  const offset = hit.offset as number;
  const text = Buffer.from(hit.text.slice(0, CHECKED_PREFIX_BYTES * 2), 'utf8').subarray(
    0,
    CHECKED_PREFIX_BYTES,
  );
  const lead = offset === 0 ? 0 : 1;
  if (offset < 0 || offset + text.length > size) return false;
  const bytes = Buffer.alloc(lead + text.length);
  const { bytesRead } = await handle.read(bytes, 0, bytes.length, offset - lead);
  if (bytesRead !== bytes.length) return false;
  if (lead === 1 && bytes[0] !== 10) return false;
  return bytes.subarray(lead).equals(text);
}
