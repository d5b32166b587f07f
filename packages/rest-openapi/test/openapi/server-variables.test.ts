import { createToolContext } from '@toolplane/core';
import { describe, expect, it } from 'vitest';
import { type ImportOptions, createRestProvider, importOpenApi } from '../../src/index.js';
import { minimal, rejection } from '../helpers/bad-input.js';
import { useCleanups } from '../helpers/fixtures.js';

const { server, defer } = useCleanups();

/** A document whose server is `url` with these variables, and one GET operation. */
const withServer = (url: string, variables: Record<string, unknown>) =>
  minimal({ '/pets': { get: { operationId: 'listPets' } } }, { servers: [{ url, variables }] });

/**
 * Imports and, when the import succeeds, calls the tool once: where a bad value would lead.
 * Returns the import's error, or undefined when the call went out.
 */
async function importAndCall(document: object, options: ImportOptions) {
  try {
    const { tools } = await importOpenApi({ document }, options);
    const rest = createRestProvider({ namespace: 'vars', tools, env: {}, timeoutMs: 5_000 });
    defer(() => rest.close());
    for (const name of Object.keys(tools)) await rest.execute(name, {}, createToolContext());
    return undefined;
  } catch (error) {
    return error as Error & { code?: string };
  }
}

describe('server variables', () => {
  it('refuses a value that would move the base URL to another host, and sends nothing', async () => {
    const evil = await server();
    const document = withServer('http://{tenant}.api.example.test/v1', { tenant: { default: 'acme' } });
    for (const tenant of [
      `${evil.host}/steal?`, // http://127.0.0.1:port/steal?.api.example.test/v1/pets
      `${evil.host}#`,
      `${evil.host}\\`,
      `user@${evil.host}/x?`,
      'a/b',
    ]) {
      const error = await importAndCall(document, { serverVariables: { tenant } });
      expect(error?.code).toBe('CONFIG_INVALID');
      expect(error?.message).toContain('server variable tenant');
    }
    // nothing reaches the other host
    expect(evil.requests).toHaveLength(0);
    const fine = await importOpenApi({ document }, { serverVariables: { tenant: 'eu-west_1.beta' } });
    expect(fine.tools.listPets?.url).toBe('http://eu-west_1.beta.api.example.test/v1/pets');
  });

  it('refuses path values that leave the base path or add a query, and keeps nested paths', async () => {
    const document = withServer('https://api.example.test/{basePath}', { basePath: { default: 'v1' } });
    for (const basePath of [
      '../admin',
      'v1/../../admin',
      '..',
      'v1?debug=1',
      'v1#x',
      'v1//x',
      '%2e%2e',
      ' v1',
    ]) {
      const error = await rejection(importOpenApi({ document }, { serverVariables: { basePath } }));
      expect(error.code).toBe('CONFIG_INVALID');
      expect(error.message).toContain('server variable basePath');
    }
    const nested = await importOpenApi({ document }, { serverVariables: { basePath: 'v2/beta' } });
    expect(nested.tools.listPets?.url).toBe('https://api.example.test/v2/beta/pets');
    // a value starting with "/" after the template's "/" is one slash, as the document means
    const slashed = await importOpenApi({ document }, { serverVariables: { basePath: '/api/v1.0' } });
    expect(slashed.tools.listPets?.url).toBe('https://api.example.test/api/v1.0/pets');
    for (const basePath of ['//x', '/../admin']) {
      const error = await rejection(importOpenApi({ document }, { serverVariables: { basePath } }));
      expect(error.message, basePath).toContain('server variable basePath');
    }

    // a variable that ends the host part may start the path, and may not extend the host
    const prefix = withServer('https://api.example.test{base}', { base: { default: '/v1' } });
    expect((await importOpenApi({ document: prefix })).tools.listPets?.url).toBe(
      'https://api.example.test/v1/pets',
    );
    for (const base of ['.evil.test/v1', '/v1/../..', '/v1?x']) {
      const error = await rejection(importOpenApi({ document: prefix }, { serverVariables: { base } }));
      expect(error.message).toContain('server variable base');
    }
    const port = withServer('https://api.example.test:{port}/v1', { port: { default: '8443' } });
    expect((await importOpenApi({ document: port })).tools.listPets?.url).toBe(
      'https://api.example.test:8443/v1/pets',
    );
    const moved = await rejection(
      importOpenApi({ document: port }, { serverVariables: { port: '1@evil.test' } }),
    );
    expect(moved.message).toContain('is in the host part');
  });

  it('checks document defaults as well as configured values against enum and characters', async () => {
    const notInEnum = withServer('https://{region}.api.example.test', {
      region: { default: 'evil', enum: ['eu', 'us'] },
    });
    // the default is checked against the enum too
    const error = await rejection(importOpenApi({ document: notInEnum }));
    expect(error.code).toBe('CONFIG_INVALID');
    expect(error.message).toContain('server variable region="evil" is not one of "eu", "us"');
    expect(
      (await importOpenApi({ document: notInEnum }, { serverVariables: { region: 'us' } })).tools.listPets
        ?.url,
    ).toBe('https://us.api.example.test/pets');
    // a configured value outside the enum stops the import (rather than skipping every operation)
    const configured = await rejection(
      importOpenApi({ document: notInEnum }, { serverVariables: { region: 'ap' } }),
    );
    expect(configured.code).toBe('CONFIG_INVALID');
    expect(configured.message).toContain('server variable region="ap" is not one of "eu", "us"');

    // a default holding ${VAR} would be expanded from the environment on every call
    const env = withServer('https://api.example.test/{basePath}', { basePath: { default: '${HOME}' } });
    const expanded = await rejection(importOpenApi({ document: env }));
    expect(expanded.code).toBe('CONFIG_INVALID');
    expect(expanded.message).toContain('server variable basePath');
  });

  it('refuses serverVariables that are not strings or that no server has', async () => {
    const document = withServer('https://{region}.api.example.test', { region: { default: 'eu' } });
    const typo = await rejection(importOpenApi({ document }, { serverVariables: { regoin: 'us' } }));
    // ignoring a misspelt name would send every call to the default region
    expect(typo.code).toBe('CONFIG_INVALID');
    expect(typo.message).toContain('serverVariables.regoin');
    expect(typo.message).toContain('region');
    // a variable named like an Object.prototype member is not filled with its source text
    const inherited = withServer('https://{toString}.api.example.test', {});
    const noDefault = await rejection(importOpenApi({ document: inherited }));
    expect(noDefault.code).toBe('CONFIG_INVALID');
    expect(noDefault.message).toContain(
      'server variable {toString} of https://{toString}.api.example.test has no default',
    );
    for (const region of [5, null, ['us']]) {
      const error = await rejection(
        importOpenApi({ document }, { serverVariables: { region } as unknown as Record<string, string> }),
      );
      expect(error.code).toBe('CONFIG_INVALID');
      expect(error.message).toContain('serverVariables.region must be a string');
    }
  });

  it('refuses an enum that is no list or is empty, naming the variable', async () => {
    for (const [enumValue, what] of [
      ['eu', 'a string'],
      [{ eu: true }, 'an object'],
      [null, 'null'],
    ] as const) {
      const document = withServer('https://{region}.api.example.test', {
        region: { default: 'evil', enum: enumValue },
      });
      // ignoring an enum that is no list would take the default (or any value) unchecked
      const error = await rejection(importOpenApi({ document }));
      expect(error.code).toBe('CONFIG_INVALID');
      expect(error.message).toContain(
        `server variable {region} of https://{region}.api.example.test has an enum that is no list (${what})`,
      );
      expect(error.message).toContain('pass baseUrl');
      // baseUrl bypasses the document's servers
      const passed = await importOpenApi({ document }, { baseUrl: 'https://eu.api.example.test' });
      expect(passed.tools.listPets?.url).toBe('https://eu.api.example.test/pets');
    }
    const empty = withServer('https://{region}.api.example.test', { region: { default: 'eu', enum: [] } });
    // the message says the enum is empty, not 'is not one of ' with nothing after it
    const error = await rejection(importOpenApi({ document: empty }, { serverVariables: { region: 'eu' } }));
    expect(error.code).toBe('CONFIG_INVALID');
    expect(error.message).toContain(
      'server variable {region} of https://{region}.api.example.test has an empty enum, which no value can match',
    );
  });
});
