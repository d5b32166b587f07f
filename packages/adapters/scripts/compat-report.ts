// Prints the compatibility report of @modelcontextprotocol/server-everything's tools for every
// dialect (the README quotes it): pnpm --filter @toolplane/adapters compat-report
import { DIALECTS, exportTools } from '../src/index.js';
import { startEverything } from '../test/helpers/everything.js';

const everything = await startEverything();
const tools = everything.orchestrator.listTools();
for (const dialect of DIALECTS) {
  const { reportText } = exportTools(tools, dialect);
  console.log(
    reportText
      .split('\n')
      .filter((line) => !line.endsWith(': exact'))
      .join('\n'),
  );
  console.log();
}
await everything.close();
