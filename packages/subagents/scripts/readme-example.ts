import { createOrchestrator } from '@toolplane/orchestrator';
import { createOpenAIRunner, createSubagents } from '@toolplane/subagents';
import { type RecordedRequest, type ScriptedReply, startScriptedModel } from '@toolplane/subagents/testing';

// A scripted model stands in for a real endpoint. The root agent spawns a researcher, steers it
// to a narrower question, waits for the announced result and reports it.
const turnOf = (request: RecordedRequest) => request.messages.filter((m) => m.role === 'assistant').length;
const last = (request: RecordedRequest) => String(request.messages.at(-1)?.content);
const tool = (name: string, args: unknown): ScriptedReply => ({ toolCalls: [{ name, arguments: args }] });
const model = await startScriptedModel({
  respond: (request) => {
    if (request.model === 'researcher-model') {
      // the first task hangs in the model request; the steered one answers
      return last(request).startsWith('Only B')
        ? tool('agent__final_report', { status: 'success', format: 'text', content: 'B is 2x faster.' })
        : { hang: true };
    }
    switch (turnOf(request)) {
      case 0:
        return tool('subagents__spawn', { agent: 'researcher', task: 'Compare A and B in every way' });
      case 1: {
        const id = /as (sub_\S+);/.exec(last(request))?.[1];
        return tool('subagents__steer', { id, message: 'Only B matters: how fast is it?' });
      }
      case 2:
        return { text: 'Waiting for the researcher.' };
      default:
        return tool('agent__final_report', { status: 'success', format: 'text', content: last(request) });
    }
  },
});

const orchestrator = createOrchestrator();
const manager = createSubagents({
  orchestrator,
  runner: createOpenAIRunner({ baseUrl: model.url, model: 'main-model' }),
  agents: [
    {
      name: 'researcher',
      description: 'Answers one narrow research question.',
      systemPrompt: 'You research. End with agent__final_report.',
      model: 'researcher-model',
    },
  ],
});

const outcome = await manager.runAgent({
  task: 'Which is faster, A or B?',
  onStep: (step) => {
    if (step.type === 'tool-started') console.log(`${'  '.repeat(step.depth)}${step.agent}: ${step.tool}`);
    if (step.type === 'child-ended')
      console.log(`${'  '.repeat(step.depth)}${step.agent}: ${step.childId} ${step.status}`);
  },
});
console.log(outcome.status, outcome.report?.content);
console.log(outcome.usage); // tokens, model turns and tool calls of the root and both researcher runs
await manager.close();
await orchestrator.close();
await model.close();
