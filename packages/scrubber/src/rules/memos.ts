// Some rules remember where their last look stopped in a text, so a scan reads each text about
// once (an anchor inside what was read is not read again). Such a memo holds the text it is about:
// left in place, it kept the last large output with a Secret manifest, an `rman` line, a cookie
// header or a known command alive after the scan (a 48 MB output stayed in memory for good). The
// scrubber forgets them when an operation ends; scans are synchronous, so none is cut short.

const forgetters: (() => void)[] = [];

/** Registers a module's memo (done once, at load). */
export function registerMemo(forget: () => void): void {
  forgetters.push(forget);
}

/** Forgets every memo: called by the scrubber when a scrub, a stream write or flush ends. */
export function forgetMemos(): void {
  for (const forget of forgetters) forget();
}
