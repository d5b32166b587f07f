import type { Readable } from 'node:stream';

/**
 * Waits until each stream has ended, at most `waitMs`: a process's exit can be reported before
 * the last of its output is read (what it printed before it died), and a grandchild that kept
 * the pipe open must not hold the exit up.
 */
export async function outputEnded(
  streams: ReadonlyArray<Readable | null | undefined>,
  waitMs: number,
): Promise<void> {
  const open = streams.filter((stream): stream is Readable => !!stream && !stream.readableEnded);
  if (open.length === 0) return;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, waitMs);
  });
  const ends = open.map((stream) => new Promise<void>((resolve) => stream.once('end', resolve)));
  await Promise.race([Promise.all(ends), timeout]);
  clearTimeout(timer);
}
