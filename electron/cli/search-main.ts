/**
 * A plain one-shot `cairn search` without commander and the other commands: what
 * bin/cairn.mjs runs, as a code-cached script of its own (scripts/build-cli-script.mjs), for
 * a search its thin client did not answer and whose arguments its own parse (parseSearch in
 * bin/thin-client.mjs) took — any other form goes to the whole CLI. The search is the
 * command's own (commands/search.ts `runSearch`), with the same runtime, output and exit
 * codes as `runCli` gives it; what it saves is loading and compiling the rest of the CLI
 * (docs/benchmarks.md, "CLI start-up, third pass").
 */
import { runSearch } from './commands/search';
import { createRuntime, exitCodeFor, type CliRuntime } from './runtime';

/** A search's arguments as bin/thin-client.mjs's parseSearch returns them. */
export interface ParsedSearch {
  query: string;
  stateDir?: string;
  agentId?: string;
  maxResults?: string;
  minScore?: string;
  source?: string;
  since?: string;
  before?: string;
  json?: boolean;
  explain?: boolean;
}

/** Run the search `args`; resolves to the exit code, as `runCli` would for the same command line. */
export async function runSearchCli(args: ParsedSearch, rt: CliRuntime = createRuntime()): Promise<number> {
  const { query, agentId, ...rest } = args;
  try {
    await runSearch(rt, query, { ...rest, ...(agentId === undefined ? {} : { agent: agentId }) });
    return typeof process.exitCode === 'number' ? process.exitCode : 0;
  } catch (err) {
    return exitCodeFor(rt, err);
  } finally {
    await rt.dispose();
  }
}
