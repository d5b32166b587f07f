import { z } from '@hono/zod-openapi';

/** The error body of every failure. */
export const ErrorSchema = z
  .object({
    error: z.object({
      code: z.string().openapi({ example: 'DENIED' }),
      reason: z.string().openapi({ example: 'key_missing' }),
      message: z.string(),
    }),
  })
  .openapi('Error');

/** Responses every authenticated route can give. */
export const AUTH_ERRORS = {
  400: {
    description: 'The body is not JSON, too deep, or fails the schema',
    content: { 'application/json': { schema: ErrorSchema } },
  },
  401: {
    description: 'No key, an unknown key or a revoked key',
    content: { 'application/json': { schema: ErrorSchema } },
  },
  403: {
    description: 'The key may not use this route',
    content: { 'application/json': { schema: ErrorSchema } },
  },
} as const;

/** A JSON response of `schema`. */
export function jsonOf<T extends z.ZodType>(schema: T, description: string) {
  return { description, content: { 'application/json': { schema } } };
}

/** A JSON request body of `schema`. */
export function bodyOf<T extends z.ZodType>(schema: T) {
  return { body: { required: true, content: { 'application/json': { schema } } } };
}

/** Tool-name patterns of grants: names with `*` wildcards. */
export const ToolPatternList = z.array(z.string().min(1).max(200)).max(500);

/** A principal id: a name, an email, a uuid. */
export const PrincipalId = z
  .string()
  .min(1)
  .max(200)
  .regex(/^[A-Za-z0-9._@:-]+$/, 'letters, digits and . _ @ : - only');

/** A resource name that is also a tool-name part. */
export const ResourceName = z
  .string()
  .min(1)
  .max(48)
  .regex(/^[A-Za-z0-9_-]+$/, 'letters, digits, _ and - only');
