/**
 * `cairn get <path>[:from[:lines]]` or `cairn get <path>#L<s>[-L<e>]` (a search citation):
 * print a memory file (same path rules as memory_get), or the cited lines of a past session
 * (`sessions/<id>.jsonl#L5-L45`, rendered as the sessions source indexes them).
 */
import type { Command } from 'commander';
import { UsageError, type CliRuntime, type GlobalOptions } from '../runtime';

interface GetOptions extends GlobalOptions {
  agent?: string;
}

/** Split `memory/x.md:10:5` or a citation `memory/x.md#L10-L14` into path, from and lines. */
export function parseGetSpec(spec: string): { path: string; from?: number; lines?: number } {
  const cite = /^(.*?)#L(\d+)(?:-L?(\d+))?$/.exec(spec);
  if (cite) {
    const from = Number(cite[2]);
    const to = cite[3] === undefined ? from : Number(cite[3]);
    if (from < 1) throw new UsageError(`get: line numbers start at 1 (got ${from})`);
    if (to < from) throw new UsageError(`get: ${spec}: the range ends before it starts`);
    return { path: cite[1]!, from, lines: to - from + 1 };
  }
  const m = /^(.*?):(\d+)(?::(\d+))?$/.exec(spec);
  if (!m) return { path: spec };
  const from = Number(m[2]);
  if (from < 1) throw new UsageError(`get: line numbers start at 1 (got ${from})`);
  return { path: m[1]!, from, ...(m[3] !== undefined ? { lines: Number(m[3]) } : {}) };
}

export function register(program: Command, rt: CliRuntime): void {
  program
    .command('get')
    .description('print a memory file, or `lines` lines from line `from` (path:from[:lines])')
    .argument('<spec>', 'workspace-relative path, e.g. memory/2024-05-08.md or MEMORY.md:10:20, or a search citation such as sessions/<id>.jsonl#L5-L45')
    .option('--agent <id>', 'agent id (default: main)')
    .option('--json', 'print {path, text}')
    .action(async (spec: string, opts: GetOptions) => {
      const o = { ...program.opts<GlobalOptions>(), ...opts };
      const { path: p, from, lines } = parseGetSpec(spec);
      const engine = await rt.engine(o);
      const { memoryGet } = await import('../../engine/index/memory-paths');
      const agentId = engine.ctx.agentId(o.agent);
      const { isSessionCitationPath, sessionCitation } = await import('../../engine/sessions/citation');
      if (isSessionCitationPath(p)) {
        const cited = sessionCitation(engine.ctx, agentId, p, from, lines === undefined ? undefined : (from ?? 1) + lines - 1);
        if (o.json) rt.json(cited);
        else rt.stdout(cited.text);
        return;
      }
      const { memorySearchSettings } = await import('../../engine/config/memory-search');
      const roots = { workspace: engine.ctx.paths(agentId).workspace, extraPaths: memorySearchSettings(engine.ctx.config().config, agentId).extraPaths };
      const out = memoryGet(roots, p, from, lines);
      if (o.json) rt.json(out);
      else rt.stdout(out.text);
    });
}
