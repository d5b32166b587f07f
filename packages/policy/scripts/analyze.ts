// Prints what the shell analysis sees in each command line given as an argument:
//   pnpm --filter @toolplane/policy exec tsx scripts/analyze.ts 'ls && rm -rf /'
import { analyzeCommandLine, loadShellParser } from '../src/index.js';

const parser = await loadShellParser();
for (const source of process.argv.slice(2)) {
  const analysis = analyzeCommandLine(parser, source);
  console.log(`== ${JSON.stringify(source)}`);
  for (const command of analysis.commands) {
    const args = command.args.map((word) => (word.dynamic ? `<${word.text}>` : word.text));
    const via = command.via.length > 0 ? ` via ${command.via.join(' > ')}` : '';
    const input = command.stdinFrom.length > 0 ? ` stdin from ${command.stdinFrom.join(', ')}` : '';
    console.log(`  command ${command.name || '<computed>'} ${JSON.stringify(args)}${via}${input}`);
  }
  for (const finding of analysis.findings)
    console.log(`  ${finding.kind} ${finding.category}: ${finding.reason}`);
  if (analysis.writes.length > 0) console.log(`  writes ${analysis.writes.join(', ')}`);
}
