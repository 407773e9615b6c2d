/**
 * `cairn sessions list|show`, `cairn prune <id>` (never writes) and `cairn compact <id>`
 * (with `--dry-run`): thin wrappers over the sessions channels through the typed client.
 */
import type { Command } from 'commander';
import type { EntryView } from '../../../shared/types/sessions';
import { UsageError, type CliRuntime, type GlobalOptions } from '../runtime';
import { formatEntry, formatPlan, formatPrune, formatRun, formatSessionList } from './sessions-format';
import { formatExactTokens } from './tokens-format';

interface Opts extends GlobalOptions {
  agent?: string;
  contextWindow?: string;
  now?: string;
  ignoreTtl?: boolean;
  instructions?: string;
  all?: boolean;
  dryRun?: boolean;
}

/** Engine errors that are the caller's fault become usage errors (exit 2). */
async function call<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    const { CairnError } = await import('../../../shared/client');
    if (err instanceof CairnError && err.code === 'bad_request') throw new UsageError(err.message);
    throw err;
  }
}

type Api = (o: GlobalOptions) => ReturnType<CliRuntime['api']>;
type WithGlobals = (o: Opts) => Opts;

export function register(program: Command, rt: CliRuntime): void {
  const api: Api = (o) => rt.api(o);
  const opts: WithGlobals = (o) => ({ ...program.opts<GlobalOptions>(), ...o });
  const sessions = program.command('sessions').description('list sessions and show their entries');
  registerList(sessions, rt, api, opts);
  registerShow(sessions, rt, api, opts);
  registerPrune(program, rt, api, opts);
  registerCompact(program, rt, api, opts);
}

/** `cairn sessions list`. */
function registerList(sessions: Command, rt: CliRuntime, api: Api, opts: WithGlobals): void {
  sessions
    .command('list')
    .description('every session: messages, estimated tokens, compactions, last activity')
    .option('--agent <id>', 'agent id (default: main)')
    .option('--json', 'print JSON')
    .action(async (o: Opts) => {
      const g = opts(o);
      const r = await call(async () => (await api(g))['sessions.list']({ agentId: g.agent }));
      // A store that cannot be read is said on stderr in both forms (and is in the JSON too):
      // its sessions are missing from the list, which must not look like "no sessions".
      for (const u of r.unreadable) rt.stderr(`warning: ${u.source}: ${u.error} (its sessions are not listed)`);
      if (g.json) rt.json(r);
      else rt.stdout(formatSessionList(r.sessions));
    });
}

/** `cairn sessions show <id>`: every entry, paged in from the engine. */
function registerShow(sessions: Command, rt: CliRuntime, api: Api, opts: WithGlobals): void {
  sessions
    .command('show')
    .description("a session's entries with type, role and tokens; compactions with their summary")
    .argument('<sessionId>')
    .option('--agent <id>', 'agent id (default: main)')
    .option('--json', 'print JSON')
    .action(async (sessionId: string, o: Opts) => {
      const g = opts(o);
      const client = await api(g);
      const entries: EntryView[] = [];
      let first;
      for (let offset = 0; ; ) {
        const page = await call(() => client['sessions.entries']({ agentId: g.agent, sessionId, offset, limit: 2000 }));
        first ??= page;
        entries.push(...page.entries);
        offset += page.entries.length;
        if (offset >= page.total || page.entries.length === 0) break;
      }
      if (!first) return;
      if (g.json) {
        rt.json({ ...first, offset: 0, entries });
        return;
      }
      rt.stdout(`${first.file} · ${first.total} entries · context ${first.contextTokens}/${first.contextWindow} tokens`);
      for (const e of entries) rt.stdout(formatEntry(e));
      for (const m of first.malformed) rt.stderr(`warning: ${first.file}:${m.line}: ${m.error}`);
    });
}

/** `cairn prune <id>`: what pruning would send the model; never writes. */
function registerPrune(program: Command, rt: CliRuntime, api: Api, opts: WithGlobals): void {
  program
    .command('prune')
    .description('what pruning would send the model for a session (the diff); never writes')
    .argument('<sessionId>')
    .option('--agent <id>', 'agent id (default: main)')
    .option('--context-window <n>', 'context window in tokens (default: the session\'s)')
    .option('--now <iso>', 'evaluate the cache TTL at this time (ISO 8601)')
    .option('--ignore-ttl', 'prune as if the cache TTL had expired')
    .option('--dry-run', 'accepted for clarity: prune never writes')
    .option('--json', 'print JSON')
    .action(async (sessionId: string, o: Opts) => {
      const g = opts(o);
      let contextWindowTokens: number | undefined;
      if (g.contextWindow !== undefined) {
        contextWindowTokens = Number(g.contextWindow);
        if (!Number.isInteger(contextWindowTokens) || contextWindowTokens <= 0) throw new UsageError(`--context-window: expected a positive integer, got ${JSON.stringify(g.contextWindow)}`);
      }
      if (g.now !== undefined && !Number.isFinite(Date.parse(g.now))) throw new UsageError(`--now: expected an ISO time such as 2025-03-02T12:00:00Z, got ${JSON.stringify(g.now)}`);
      const now = g.now !== undefined ? new Date(g.now).toISOString() : undefined;
      const r = await call(async () => (await api(g))['prune.preview']({ agentId: g.agent, sessionId, contextWindowTokens, now, ignoreTtl: g.ignoreTtl }));
      if (g.json) rt.json(r);
      else rt.stdout(formatPrune(r));
    });
}

/** `cairn compact <id>` (`--dry-run`: the plan and the exact prompt). */
function registerCompact(program: Command, rt: CliRuntime, api: Api, opts: WithGlobals): void {
  program
    .command('compact')
    .description('compact a session now (model summary, or the deterministic extract without a model)')
    .argument('<sessionId>')
    .option('--agent <id>', 'agent id (default: main)')
    .option('--instructions <text>', 'what the summary should focus on')
    .option('--all', 'keep nothing verbatim (default keeps keepRecentTokens)')
    .option('--dry-run', 'show the plan and the exact prompt; no model, no write')
    .option('--json', 'print JSON')
    .action(async (sessionId: string, o: Opts) => {
      const g = opts(o);
      const client = await api(g);
      const req = { agentId: g.agent, sessionId, instructions: g.instructions, all: g.all };
      if (g.dryRun) {
        const plan = await call(() => client['compact.plan'](req));
        // SPEC §2: with a local model, its tokenizer's exact counts beside the estimates.
        const exact = await call(() => client['tokens.exact']({ agentId: g.agent, sessionId, all: g.all }));
        if (g.json) rt.json({ ...plan, exactTokens: exact });
        else rt.stdout(`${formatExactTokens(exact)}${formatPlan(plan)}`);
        return;
      }
      const opId = `cli-compact-${process.pid}-${Date.now()}`;
      const bar = rt.progress('compact', g);
      const off = client.on('compact.progress', (p) => {
        if (p.opId === opId) bar.update(p.done, Math.max(1, p.total), p.label);
      });
      try {
        const r = await rt.interruptible('compaction', (signal) => call(() => client['compact.run'](req, { opId, signal })));
        bar.stop();
        if (!r) return;
        if (g.json) rt.json(r);
        else rt.stdout(formatRun(r));
        if (!r.compacted) process.exitCode = 1;
      } finally {
        bar.stop();
        off();
      }
    });
}
