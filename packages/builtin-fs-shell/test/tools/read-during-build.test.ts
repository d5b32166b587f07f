// `read` while a background index build of the same file is held partway: a line next to an
// anchor (a grep's line start) is read at once from the anchor, a line with no anchor near it
// waits for the build and reads from its checkpoints. The build is held by its own file handle,
// so what each read did is told by the bytes it read, not by the clock.
import { type FileHandle, open, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { context, makeTempDir, okText } from '../helpers/index.js';
import { IndexAhead } from '../../src/files/index-ahead.js';
import { LineIndexCache, versionOf } from '../../src/files/line-index.js';
import { ScannerPool } from '../../src/files/newline-scanner.js';
import { BACKWARD_MAX_BYTES } from '../../src/files/skip-lines.js';
import { PathLocks } from '../../src/files/path-locks.js';
import { DEFAULT_LIMITS } from '../../src/provider.js';
import { SessionStore } from '../../src/session/session-store.js';
import { SessionSandboxes } from '../../src/session/session-sandboxes.js';
import { TaskManager } from '../../src/tasks/task-manager.js';
import { Workspace } from '../../src/workspace/workspace.js';
import type { ToolDeps } from '../../src/tools/deps.js';
import { createReadTool } from '../../src/tools/read.js';

/** Every row is this long, so a line's byte offset is known without counting. */
const ROW_BYTES = 32;
const ROWS = 1_500_000;
const row = (line: number) => `row ${String(line).padStart(9, '0')} ${'x'.repeat(17)}\n`;

/** Bytes this process has read so far, from the kernel's accounting. */
async function bytesReadByProcess(): Promise<number> {
  const io = await readFile('/proc/self/io', 'utf8');
  return Number(/^rchar: (\d+)$/m.exec(io)?.[1]);
}

/** A handle whose reads after the first wait until `gate` resolves. */
function heldAfterFirstRead(handle: FileHandle, gate: Promise<void>): FileHandle {
  let reads = 0;
  return new Proxy(handle, {
    get(target, property) {
      if (property === 'read') {
        return async (buffer: Uint8Array, offset: number, length: number, position: number) => {
          if (reads++ > 0) await gate;
          return target.read(buffer, offset, length, position);
        };
      }
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/** What the read tool uses, built as the provider builds it, with no counting threads. */
function readDeps(dir: string): ToolDeps {
  const lineIndex = new LineIndexCache();
  const scanners = new ScannerPool();
  const unused = (what: string) => () => {
    throw new Error(`read used ${what}`);
  };
  return {
    workspace: new Workspace({ workspace: dir }),
    sessions: new SessionStore(),
    lineIndex,
    pathLocks: new PathLocks(),
    scanners,
    countThreads: null,
    indexAhead: new IndexAhead({ index: lineIndex, scanners, threads: null, minBytes: 0 }),
    limits: DEFAULT_LIMITS,
    tasks: new TaskManager(DEFAULT_LIMITS.taskMaxOutputBytes, DEFAULT_LIMITS.executorGraceMs),
    sandboxes: new SessionSandboxes(),
    grep: {},
    webFetch: {},
    isClosed: () => false,
    executorFor: unused('an executor'),
    webAgent: unused('the web agent'),
    commandEnv: unused('the command environment'),
  };
}

describe('read while an index build of the file is held partway', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  let path: string;
  let deps: ToolDeps;
  let release: () => void;
  let built: Promise<unknown> | undefined;
  const ctx = context('held-build');

  beforeAll(async () => {
    ({ dir, cleanup } = await makeTempDir('tp-read-held-'));
    path = join(dir, 'big.log');
    const rows: string[] = [];
    for (let line = 1; line <= ROWS; line++) rows.push(row(line));
    await writeFile(path, rows.join(''));
    deps = readDeps(dir);
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    deps.indexAhead.request(path, versionOf(await stat(path)), async () =>
      heldAfterFirstRead(await open(path), gate),
    );
    built = deps.indexAhead.running();
  });
  afterAll(async () => {
    release();
    await deps.indexAhead.close();
    await cleanup();
  });

  const read = (offset: number, limit = 20) =>
    createReadTool(deps).execute({ path: 'big.log', offset, limit }, ctx);

  it('reads a line next to an anchor at once, without waiting for the build', async () => {
    expect(built).toBeDefined();
    const line = 1_000_000;
    // A search found line `line - 300` (its start recorded, as grep does for large files).
    deps.lineIndex.record(path, versionOf(await stat(path)), (line - 301) * ROW_BYTES, line - 301);
    expect(deps.lineIndex.anchored(path, versionOf(await stat(path)), line, BACKWARD_MAX_BYTES)).toBe(true);
    const before = await bytesReadByProcess();
    // Were the read waiting for the build, it would wait for the gate, which opens after it.
    const text = okText(await read(line));
    const bytes = (await bytesReadByProcess()) - before;
    expect(text).toContain(row(line).trimEnd());
    expect(text).toContain(row(line + 19).trimEnd());
    expect(text).not.toContain(row(line - 1).trimEnd());
    // The build is still held (it has read one chunk), and the read scanned from the anchor only.
    expect(deps.indexAhead.running()).toBe(built);
    expect(deps.lineIndex.furthest(path, versionOf(await stat(path))).offset).toBeLessThan(
      (ROW_BYTES * ROWS) / 4,
    );
    expect(bytes).toBeLessThan(4 * 1024 * 1024);
  });

  it('waits for the build for a line with no anchor near it, then reads from its checkpoints', async () => {
    const line = 600_000;
    const before = await bytesReadByProcess();
    const reading = read(line);
    // The gate opens only now: the build reads the rest of the file, the read waits for it.
    release();
    const text = okText(await reading);
    await built;
    const bytes = (await bytesReadByProcess()) - before;
    expect(text).toContain(row(line).trimEnd());
    expect(text).not.toContain(row(line - 1).trimEnd());
    // The build read the file once; a read that scanned beside it would add ~19 MB more.
    const fileBytes = ROW_BYTES * ROWS;
    expect(bytes).toBeGreaterThanOrEqual(fileBytes * 0.9);
    expect(bytes).toBeLessThan(fileBytes + 4 * 1024 * 1024);
    expect(deps.lineIndex.isComplete(path, versionOf(await stat(path)))).toBe(true);
  });
});
