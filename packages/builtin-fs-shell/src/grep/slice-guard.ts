import { Script, createContext } from 'node:vm';

/** Thrown by {@link runBounded} when the work held the thread past its budget and was stopped. */
export class SliceCut extends Error {
  constructor(readonly budgetMs: number) {
    super(`a search slice ran past ${budgetMs} ms and was stopped`);
    this.name = 'SliceCut';
  }
}

// One context for every guarded slice: the script only calls the function handed to it, so the
// work runs with its own realm's objects (a ToolError it throws stays a ToolError).
const context = createContext({ run: undefined as (() => void) | undefined });
const script = new Script('run()', { filename: 'toolplane-grep-slice' });

/**
 * Runs synchronous work under a watchdog: past `budgetMs` V8 stops it wherever it is (a
 * backtracking regular expression included, which nothing else can interrupt) and
 * {@link SliceCut} is thrown. The work must be able to resume after such a cut: nothing it had
 * started is finished, and no `finally` of its ran.
 */
export function runBounded<T>(work: () => T, budgetMs: number): T {
  let result: T | undefined;
  context.run = () => {
    result = work();
  };
  try {
    script.runInContext(context, { timeout: budgetMs });
  } catch (error) {
    if ((error as { code?: unknown }).code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') throw new SliceCut(budgetMs);
    throw error;
  } finally {
    context.run = undefined;
  }
  return result as T;
}
