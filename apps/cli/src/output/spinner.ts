const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

/** A spinner on a TTY stream; nothing at all when the stream is not a terminal. */
export interface Spinner {
  update(text: string): void;
  stop(): void;
}

/** Starts a spinner with `text` (on stderr by default). */
export function startSpinner(text: string, stream: NodeJS.WriteStream = process.stderr): Spinner {
  if (!stream.isTTY) return { update() {}, stop() {} };
  let frame = 0;
  let current = text;
  const draw = (): void => {
    stream.write(`\r\u001b[2K${FRAMES[frame % FRAMES.length]} ${current}`);
    frame++;
  };
  draw();
  const timer = setInterval(draw, 80);
  timer.unref();
  return {
    update(next) {
      current = next;
    },
    stop() {
      clearInterval(timer);
      stream.write('\r\u001b[2K');
    },
  };
}
