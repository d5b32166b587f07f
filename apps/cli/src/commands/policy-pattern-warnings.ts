import type { ConfigIssue } from '../config/issue.js';
import { formatPath } from '../config/issue.js';
import type { LoadedConfig } from '../config/load.js';
import { unmatchedPolicyPatterns } from '../config/policy-pattern-issues.js';
import { withRuntime } from '../runtime/lifecycle.js';

/** Whether the policy names tools at all (else nothing needs the providers started). */
function namesTools(policy: unknown): boolean {
  return unmatchedPolicyPatterns(policy, []).length > 0;
}

/**
 * `config validate`'s warnings about policy entries that match no tool: the providers start (as
 * `tools list` starts them) to learn the names. A provider that does not start is one warning of
 * its own, and the entries that could name its tools are not judged.
 */
export async function policyPatternWarnings(loaded: LoadedConfig): Promise<ConfigIssue[]> {
  if (!namesTools(loaded.config.policy)) return [];
  const file = loaded.file ?? '';
  return withRuntime(loaded, {}, async (runtime) => {
    const failed = runtime.orchestrator.providers().filter((provider) => provider.state === 'failed');
    const names = runtime.orchestrator.listRegistered().map((tool) => tool.name);
    const failedNames = failed.map((provider) => provider.namespace);
    const warnings: ConfigIssue[] = failed.map((provider) => ({
      file,
      path: runtime.providers.find((entry) => entry.provider.namespace === provider.namespace)?.source ?? '',
      message: runtime.redact(
        `provider ${provider.namespace} did not start (${provider.error ?? 'unknown error'}): policy entries for its tools were not checked`,
      ),
    }));
    for (const unmatched of unmatchedPolicyPatterns(loaded.config.policy, names, failedNames))
      warnings.push({
        file,
        ...loaded.locate([...unmatched.path]),
        path: formatPath(unmatched.path),
        message: unmatched.message,
      });
    return warnings;
  });
}
