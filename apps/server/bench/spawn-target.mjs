import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** Starts `bench/target.mjs` with `args` in a child process; answers its URL, key, pid, memory and a stop. */
export async function spawnTarget(args) {
  const script = fileURLToPath(new URL('./target.mjs', import.meta.url));
  const child = spawn(process.execPath, ['--expose-gc', script, ...args], {
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
  });
  const line = await new Promise((resolve, reject) => {
    let text = '';
    child.stdout.on('data', (chunk) => {
      text += chunk;
      if (text.includes('\n')) resolve(text.split('\n')[0]);
    });
    child.once('exit', (code) => reject(new Error(`bench target ${args.join(' ')} exited with ${code}`)));
  });
  const { url, key } = JSON.parse(line);
  return {
    url,
    key,
    pid: child.pid,
    /** The target's `process.memoryUsage()` after a full garbage collection. */
    memory: () =>
      new Promise((resolve) => {
        child.once('message', (message) => resolve(message.memory));
        child.send('memory');
      }),
    stop: () =>
      new Promise((resolve) => {
        child.removeAllListeners('exit');
        child.once('exit', resolve);
        child.kill('SIGTERM');
      }),
  };
}
