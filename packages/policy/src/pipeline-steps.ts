/** The steps of the tool-list pipeline, in the order they run (design document 002). */
export const PIPELINE_STEPS = [
  'profile',
  'provider-profile',
  'allow',
  'provider-allow',
  'agent-allow',
  'agent-provider-allow',
  'channel-allow',
  'permissions',
  'deny',
  'agent-deny',
  'also-allow',
  'agent-also-allow',
  'subagent-deny',
  'leaf-deny',
] as const;

/** One of {@link PIPELINE_STEPS}. */
export type PipelineStep = (typeof PIPELINE_STEPS)[number];

/** What one step did to one tool. */
export interface StepRecord {
  readonly step: PipelineStep;
  /** `kept` (matched an allow list), `removed`, `added` (alsoAllow), `skipped` (the step has no list here). */
  readonly outcome: 'kept' | 'removed' | 'added' | 'skipped' | 'overridden';
  /** The list entry that matched, when one did. */
  readonly rule?: string;
  readonly detail: string;
}
