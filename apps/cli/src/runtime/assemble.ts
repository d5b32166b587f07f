import type { ApprovalChannel, ToolProvider } from '@toolplane/core';
import type { ToolsOrchestrator, WarmupReport } from '@toolplane/orchestrator';
import type { Policy } from '@toolplane/policy';
import type { Scrubber } from '@toolplane/scrubber';
import type { LoadedConfig } from '../config/load.js';
import { type ConfiguredProvider, type McpClientOptions, createProviders } from './providers.js';
import { pipelineStartTimeout } from './start-timeouts.js';
import { StrayOutputLog } from './stray-output.js';

/** Everything a command needs: the orchestrator with policy and scrubber in place. */
export interface Runtime {
  readonly loaded: LoadedConfig;
  readonly orchestrator: ToolsOrchestrator;
  readonly policy: Policy;
  readonly scrubber: Scrubber | undefined;
  readonly providers: readonly ConfiguredProvider[];
  /** What each MCP server wrote to stdout that is not JSON-RPC (see `doctor`). */
  readonly strayOutput: StrayOutputLog;
  /**
   * A provider's report (a start error quoting a server's stderr, a stray stdout line) with
   * credentials redacted, also with `scrubber.enabled: false`: such text goes to the terminal
   * and into issue reports, not to a model.
   */
  redact(text: string): string;
  /** Starts every provider; failures are reported, not thrown. Registers secrets with the scrubber. */
  warmup(): Promise<WarmupReport[]>;
  /** Stops every provider (child servers included). Safe to call twice. */
  close(): Promise<void>;
}

/** Options of {@link assembleRuntime}. */
export interface AssembleOptions {
  /** Where `ask` decisions go; none means they fail closed with `APPROVAL_REQUIRED`. */
  readonly approvals?: ApprovalChannel;
  /** What the MCP servers' client answers (elicitation, sampling, roots); none by default. */
  readonly mcpClient?: McpClientOptions;
}

function secretsOf(provider: ToolProvider): readonly string[] {
  try {
    return provider.secretValues?.() ?? [];
  } catch {
    return [];
  }
}

/**
 * Builds the pipeline from a config: providers, then the policy gate (`gate` phase), then the
 * scrubber (`transform` phase, on unless the config turns it off); the orchestrator's size cap
 * is always on.
 */
export async function assembleRuntime(loaded: LoadedConfig, options: AssembleOptions = {}): Promise<Runtime> {
  const [{ createOrchestrator }, { createPolicy, policyMiddleware }] = await Promise.all([
    import('@toolplane/orchestrator'),
    import('@toolplane/policy'),
  ]);
  const { limits, scrubber: scrubberConfig } = loaded.config;
  const orchestrator = createOrchestrator({
    timeoutMs: limits.timeoutMs,
    // a backstop: the MCP servers stop their own start at the limit, saying why
    startTimeoutMs: pipelineStartTimeout(limits.startTimeoutMs),
    output: { maxBytes: limits.maxOutputBytes },
    ...(limits.maxConcurrency ? { maxConcurrency: limits.maxConcurrency } : {}),
    ...(limits.rateLimit ? { rateLimit: limits.rateLimit } : {}),
  });
  const strayOutput = new StrayOutputLog();
  const providers = await createProviders(loaded, strayOutput, options.mcpClient);
  for (const { provider } of providers) orchestrator.register(provider);
  const configured = createPolicy(loaded.config.policy as Parameters<typeof createPolicy>[0]);
  const sandbox = loaded.config.sandbox;
  const policy =
    sandbox?.autoAllow && sandbox.kind !== 'host'
      ? (await import('../sandbox/auto-allow.js')).withSandboxAutoAllow(configured, sandbox.kind)
      : configured;
  orchestrator.use(
    policyMiddleware(policy, {
      approvalTimeoutMs: limits.approvalTimeoutMs,
      ...(options.approvals ? { approvals: options.approvals } : {}),
    }),
  );
  if (providers.some((configured) => configured.variables !== undefined))
    orchestrator.use((await import('./missing-variable.js')).missingVariableMiddleware(providers));
  const { createScrubber, scrubberMiddleware } = await import('@toolplane/scrubber');
  const secrets = (scrubberConfig.secretEnv ?? [])
    .map((name) => process.env[name])
    .filter((value): value is string => typeof value === 'string' && value.length > 0);
  let scrubber: Scrubber | undefined;
  if (scrubberConfig.enabled) {
    scrubber = createScrubber({
      secrets,
      ...(scrubberConfig.disabledRules ? { disabledRules: scrubberConfig.disabledRules } : {}),
    });
    orchestrator.use(scrubberMiddleware(scrubber));
  }
  const diagnostics = scrubber ?? createScrubber({ secrets });
  let closing: Promise<void> | undefined;
  return {
    loaded,
    orchestrator,
    policy,
    scrubber,
    providers,
    strayOutput,
    redact: (text) => diagnostics.scrubText(text),
    async warmup() {
      const reports = await orchestrator.warmup();
      for (const { provider } of providers)
        for (const secret of secretsOf(provider)) {
          scrubber?.addSecret(secret);
          if (diagnostics !== scrubber) diagnostics.addSecret(secret);
        }
      policy.setTools(orchestrator.listRegistered());
      return reports;
    },
    close() {
      // the built-in tools' sandbox (its containers) goes after the provider that used it
      closing ??= orchestrator
        .close()
        .finally(() => Promise.all(providers.map((configured) => configured.dispose?.())));
      return closing;
    },
  };
}
