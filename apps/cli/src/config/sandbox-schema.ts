// The `sandbox:` section: where the built-in shell tools run (@toolplane/sandbox's options, as
// an operator writes them). Its objects name a misspelled key with the key it is closest to.
import { z } from 'zod';
import { closestKey } from './closest-key.js';

/** The longest delay a Node timer holds. */
const MAX_TIMER_MS = 2_147_483_647;
const positiveMs = z
  .number()
  .int()
  .positive()
  .max(MAX_TIMER_MS, `at most ${MAX_TIMER_MS} ms (about 24 days), the longest a timer holds`);

const UNITS: Readonly<Record<string, number>> = { '': 1, b: 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3 };
const SIZE = /^(\d+(?:\.\d+)?)\s*([kmg]?)(?:i?b)?$/i;

/** A size in bytes: a number, or `512m`, `512MiB`, `1.5g` (binary units, as Docker reads them). */
function size(minBytes: number, what: string) {
  return z
    .union([
      z.number().int().positive(),
      z.string().regex(SIZE, `a size in bytes, or a number with a unit: "512m", "512MiB", "2g" (${what})`),
    ])
    .transform((value) => {
      if (typeof value === 'number') return value;
      const [, amount = '0', unit = ''] = SIZE.exec(value.trim()) ?? [];
      return Math.round(Number(amount) * (UNITS[unit.toLowerCase()] ?? 1));
    })
    .refine((bytes) => bytes >= minBytes, `at least ${minBytes / 1024 ** 2} MiB (${what})`);
}

/**
 * An object that refuses keys it does not have, naming the closest known one
 * (`unknown field "imgae": did you mean image?`).
 */
function strictWithHints<Shape extends z.ZodRawShape>(shape: Shape) {
  const known = Object.keys(shape);
  // `when`: also run when a known field is wrong, so every problem is reported at once
  return z.looseObject(shape).superRefine(
    (value, ctx) => {
      if (typeof value !== 'object' || value === null) return;
      for (const key of Object.keys(value)) {
        if (known.includes(key)) continue;
        const meant = closestKey(key, known);
        ctx.addIssue({
          code: 'custom',
          path: [key],
          message: meant
            ? `unknown field "${key}": did you mean ${meant}?`
            : `unknown field "${key}": remove it (the fields are ${known.join(', ')})`,
        });
      }
    },
    { when: () => true },
  );
}

const limitsSchema = strictWithHints({
  /** Memory, and memory plus swap. */
  memory: size(6 * 1024 ** 2, 'Docker needs 6 MiB at least').optional(),
  cpus: z.number().positive().max(1024).optional(),
  pids: z.number().int().min(8, 'at least 8: a shell and a pipeline need a few').optional(),
  /** Size of the tmpfs at /tmp. */
  tmp: size(1024 ** 2, 'the tmpfs at /tmp').optional(),
});

const hostPattern = z
  .string()
  .regex(
    /^(\*\.)?[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?)*$/,
    'a host name ("registry.npmjs.org") or "*." and a domain ("*.github.com"), without scheme or port',
  );

const networkSchema = z.union([
  z.literal('none'),
  strictWithHints({
    allow: z.array(hostPattern).min(1, 'name at least one host, or use network: none'),
    ports: z.array(z.number().int().min(1).max(65535)).optional(),
    allowedRanges: z.array(z.string().min(1)).optional(),
  }),
]);

const hardeningSchema = strictWithHints({
  readOnlyRoot: z.boolean().optional(),
  capabilities: z.array(z.string().regex(/^[A-Z_]+$/, 'a capability name like NET_BIND_SERVICE')).optional(),
  noNewPrivileges: z.boolean().optional(),
  user: z
    .string()
    .regex(/^\d+(:\d+)?$/, 'uid or uid:gid, numbers ("65534:65534")')
    .optional(),
});

/** Kinds of sandbox, `host` being none. */
export const SANDBOX_KINDS = ['docker', 'bwrap', 'host'] as const;

/** The schema of the `sandbox:` section. */
export const sandboxSchema = strictWithHints({
  kind: z
    .enum(SANDBOX_KINDS, {
      error: (issue) => {
        const meant = typeof issue.input === 'string' ? closestKey(issue.input, SANDBOX_KINDS) : undefined;
        return `kind is one of ${SANDBOX_KINDS.join(', ')}${meant ? `: did you mean ${meant}?` : ''}`;
      },
    })
    .default('host'),
  /** Docker only. */
  image: z.string().min(1).optional(),
  limits: limitsSchema.optional(),
  network: networkSchema.optional(),
  /** Docker only. */
  hardening: hardeningSchema.optional(),
  protectedPaths: z.array(z.string().min(1)).optional(),
  envAllowList: z.array(z.string().min(1)).optional(),
  env: z.record(z.string(), z.string()).optional(),
  timeoutMs: positiveMs.optional(),
  /** Docker only. */
  idleMs: positiveMs.optional(),
  /** bwrap only. */
  bwrapPath: z.string().min(1).optional(),
  fallback: z.enum(['fail', 'host']).default('fail'),
  autoAllow: z.boolean().default(false),
}).superRefine((value, ctx) => {
  const only = (key: string, kind: string): void => {
    if ((value as Record<string, unknown>)[key] !== undefined && value.kind !== kind)
      ctx.addIssue({
        code: 'custom',
        path: [key],
        message: `${key} applies to kind: ${kind} only (this sandbox is kind: ${value.kind}): remove it or change the kind`,
      });
  };
  only('image', 'docker');
  only('hardening', 'docker');
  only('idleMs', 'docker');
  only('bwrapPath', 'bwrap');
  if (value.autoAllow && (value.kind === 'host' || value.fallback === 'host'))
    ctx.addIssue({
      code: 'custom',
      path: ['autoAllow'],
      message:
        value.kind === 'host'
          ? 'autoAllow needs a sandbox (kind: docker or bwrap): on the host nothing contains the commands'
          : 'autoAllow needs fallback: fail: with fallback: host a command it allowed could run on the host, unconfined',
    });
});

/** The `sandbox:` section, validated. */
export type SandboxSection = z.output<typeof sandboxSchema>;
