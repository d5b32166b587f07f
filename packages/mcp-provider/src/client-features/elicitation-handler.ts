import { errorMessage } from '@toolplane/core';
import type { McpProviderEvent } from '../lifecycle/events.js';
import { checkElicitationAnswer, withDefaults } from './elicitation-answer.js';
import { elicitationFields } from './elicitation-fields.js';
import { INTERNAL_ERROR, INVALID_PARAMS, ServerRequestRefusal } from './refusal.js';
import type { ElicitationAnswer, ElicitationChannel, ElicitationRequest } from './types.js';

/** The first protocol revision with URL-mode elicitation. */
export const URL_MODE_SINCE = '2025-11-25';
const ACTIONS = new Set(['accept', 'decline', 'cancel']);

/** What one elicitation needs to know about its provider and session. */
export interface ElicitationScope {
  readonly server: string;
  readonly channel: ElicitationChannel;
  /** The negotiated protocol revision (URL mode needs 2025-11-25 or later). */
  protocolVersion(): string | undefined;
  emit(event: McpProviderEvent): void;
}

const clip = (text: string, max: number): string => (text.length > max ? `${text.slice(0, max)}...` : text);

function requestOf(
  server: string,
  params: Record<string, unknown>,
  version: string | undefined,
): ElicitationRequest {
  const message = typeof params.message === 'string' ? params.message : '';
  const mode = params.mode ?? 'form';
  if (mode === 'url') {
    if (version !== undefined && version < URL_MODE_SINCE) {
      throw new ServerRequestRefusal(
        INVALID_PARAMS,
        `elicitation refused: URL mode needs protocol ${URL_MODE_SINCE} or later, and this session speaks ${version}`,
      );
    }
    const url = typeof params.url === 'string' ? params.url : '';
    if (!/^https?:\/\//i.test(url) || !URL.canParse(url))
      throw new ServerRequestRefusal(INVALID_PARAMS, 'elicitation refused: URL mode needs an http(s) "url"');
    if (typeof params.elicitationId !== 'string' || params.elicitationId === '')
      throw new ServerRequestRefusal(
        INVALID_PARAMS,
        'elicitation refused: URL mode needs an "elicitationId"',
      );
    return { mode: 'url', server, message, url, elicitationId: params.elicitationId };
  }
  if (mode !== 'form') throw new ServerRequestRefusal(INVALID_PARAMS, 'elicitation refused: unknown mode');
  const requestedSchema = params.requestedSchema as Record<string, unknown>;
  return { mode: 'form', server, message, fields: elicitationFields(requestedSchema), requestedSchema };
}

/**
 * Answers one `elicitation/create`: reads the form (refusing schemas MCP does not allow), asks
 * the channel, fills the defaults of fields left out (SEP-1034) and checks the answer against
 * the form before it goes to the server. Reports `elicitation-answered` with the action and the
 * field names only: what a person typed is never in an event or an error message.
 */
export async function answerElicitation(
  scope: ElicitationScope,
  params: Record<string, unknown>,
  signal: AbortSignal,
): Promise<Record<string, unknown>> {
  const request = requestOf(scope.server, params, scope.protocolVersion());
  if (!(scope.channel.modes ?? ['form']).includes(request.mode)) {
    throw new ServerRequestRefusal(
      INVALID_PARAMS,
      `elicitation refused: this client answers ${(scope.channel.modes ?? ['form']).join(', ')} mode only`,
    );
  }
  let answer: ElicitationAnswer;
  try {
    answer = await scope.channel.elicit(request, signal);
  } catch (error) {
    throw new ServerRequestRefusal(
      INTERNAL_ERROR,
      `elicitation failed on the client: ${clip(errorMessage(error), 200)}`,
    );
  }
  const action = (answer as { action?: unknown } | undefined)?.action;
  if (typeof action !== 'string' || !ACTIONS.has(action)) {
    throw new ServerRequestRefusal(
      INTERNAL_ERROR,
      'elicitation failed on the client: its answer has no valid action',
    );
  }
  const report = (
    outcome: 'accept' | 'decline' | 'cancel' | 'invalid',
    fields: readonly string[],
    problems?: readonly string[],
  ): void =>
    scope.emit({
      type: 'elicitation-answered',
      server: scope.server,
      mode: request.mode,
      action: outcome,
      fields,
      ...(problems ? { problems } : {}),
    });
  if (action !== 'accept' || request.mode === 'url') {
    report(action as 'accept' | 'decline' | 'cancel', []);
    return { action };
  }
  const given = (answer as { content?: Record<string, unknown> }).content;
  const content = withDefaults(request.fields, given);
  const problems = checkElicitationAnswer(request.fields, content);
  if (problems.length > 0) {
    report('invalid', Object.keys(content).slice(0, 100), problems.slice(0, 20));
    throw new ServerRequestRefusal(
      INTERNAL_ERROR,
      `elicitation failed on the client: its answer does not match the requested schema (${problems.slice(0, 5).join('; ')})`,
    );
  }
  report('accept', Object.keys(content));
  return { action: 'accept', content };
}
