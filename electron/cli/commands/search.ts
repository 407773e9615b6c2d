/**
 * `cairn search "<query>"`: hybrid memory search (syncs first when the index is missing or
 * dirty). `--json` prints exactly `{results, mode, embedder, warnings}` — other tools rely on
 * this shape. Everything heavy is imported in the action, and the search runs on the engine
 * context alone (no handler map): this command's start-up is measured (docs/benchmarks.md).
 */
import fs from 'node:fs';
import type { Command } from 'commander';
import { openclawDbFile } from '../../engine/sessions/store/openclaw-db-file';
import { formatResults, statusLine } from '../../../bin/search-format.mjs';
import { jitless, UsageError, type CliRuntime, type GlobalOptions } from '../runtime';

/** `cairn search`'s options, as commander names them. */
export interface SearchOptions extends GlobalOptions {
  agent?: string;
  maxResults?: string;
  minScore?: string;
  source?: string;
  since?: string;
  before?: string;
  explain?: boolean;
  trigger?: string;
  project?: string;
  importanceMin?: string;
}

function num(v: string | undefined): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  return Number.isFinite(n) ? n : Number.NaN;
}

export function register(program: Command, rt: CliRuntime): void {
  program
    .command('search')
    .description('search memory (hybrid BM25 + vectors); syncs first when files changed')
    .argument('<query>', 'what to look for, in words')
    .option('--agent <id>', 'agent id (default: main)')
    .option('-n, --max-results <n>', 'number of results (default from config: 6)')
    .option('--min-score <x>', 'minimum relevance 0..1 (default from config: 0.1)')
    .option('--source <source>', 'memory | sessions | all')
    .option('--since <date>', 'only notes dated on or after YYYY-MM-DD')
    .option('--before <date>', 'only notes dated before YYYY-MM-DD')
    .option('--explain', "show each stage's score")
    .option('--trigger <phrase>', 'only entries annotated <!-- trigger: … --> with this phrase (MEMORY.md, USER.md)')
    .option('--project <key>', 'only entries annotated <!-- project: <key> -->')
    .option('--importance-min <n>', 'only entries annotated <!-- importance: N --> with N ≥ n (1–10)')
    .option('--json', 'print JSON')
    .action((query: string, opts: SearchOptions) => runSearch(rt, query, { ...program.opts<GlobalOptions>(), ...opts }));
}

/**
 * The search itself, for the options of the command line (`o`: the command's and the global
 * ones): from commander here, and from bin/cairn.mjs's own parse of a plain one-shot search
 * through the search script (cli/search-main.ts), which skips commander and every other command.
 */
export async function runSearch(rt: CliRuntime, query: string, o: SearchOptions): Promise<void> {
  await jitless();
  const { SearchQueryRequest } = await import('../../../shared/contract/search');
  const parsed = SearchQueryRequest.safeParse({
    query,
    agentId: o.agent,
    maxResults: num(o.maxResults),
    minScore: num(o.minScore),
    source: o.source,
    since: o.since,
    before: o.before,
    explain: o.explain,
    trigger: o.trigger,
    project: o.project,
    importanceMin: num(o.importanceMin),
  });
  if (!parsed.success) {
    const flag: Record<string, string> = { maxResults: '-n', minScore: '--min-score', agentId: '--agent', importanceMin: '--importance-min' };
    const msg = parsed.error.issues.map((i) => `${flag[String(i.path[0])] ?? `--${String(i.path[0])}`}: ${i.message}`).join('; ');
    throw new UsageError(`search: ${msg}`);
  }
  const ctx = await rt.context(o);
  const agentId = ctx.agentId(o.agent);
  const found = await ctx.searchBackend().search(agentId, { ...parsed.data, signal: rt.signal });
  // The provenance OpenClaw recorded comes from its agent store: without the file there is
  // none to add, and its reader (SQLite store, caches) is not loaded.
  const res = fs.existsSync(openclawDbFile(ctx.stateDir, agentId)) ? (await import('../../engine/openclaw/provenance-handlers')).addProvenance(ctx, agentId, found) : found;
  if (o.json) {
    rt.json({ results: res.results, mode: res.mode, embedder: res.embedder, warnings: [...ctx.warnings().filter((w) => !res.warnings.includes(w)), ...res.warnings] });
    return;
  }
  rt.stdout(formatResults(res));
  // Says so when QMD answered; a QMD fallback to the built-in index is in the warnings.
  rt.stderr(statusLine(res));
  for (const w of res.warnings) rt.stderr(`warning: ${w}`);
}
