/**
 * `cairn dreaming history` — MEMORY.md's versions (dreaming's saved copies, the versions Cairn
 * saw, the file now), what each added and removed, where each promoted entry came from (daily
 * note and lines, sessions, recall counts, distinct queries) and why the other candidates were
 * not promoted. `cairn dreaming reports` lists DREAMS.md, the phase reports and the blocks
 * dreaming manages in daily notes; `cairn dreaming report <path>` prints one. All read-only;
 * `--json` prints the engine's answer as is.
 */
import type { Command } from 'commander';
import type { CliRuntime, GlobalOptions } from '../runtime';
import type { MemoryHistory, PromotedEntry } from '../../../shared/types/dreaming';

interface DreamOptions extends GlobalOptions {
  agent?: string;
  json?: boolean;
}

/** One promoted entry and its evidence, as indented lines. */
function promotionLines(p: PromotedEntry): string[] {
  const out = [`  + ${p.text}`];
  const src = p.source ?? (p.evidence ? { path: p.evidence.path, startLine: p.evidence.startLine, endLine: p.evidence.endLine } : undefined);
  if (src) out.push(`      from ${src.path}#L${src.startLine}-L${src.endLine}`);
  const e = p.evidence;
  if (e) {
    out.push(`      recalled ${e.recallCount}× by ${e.uniqueQueries} distinct ${e.uniqueQueries === 1 ? 'query' : 'queries'} on ${e.recallDays.join(', ') || '?'}${e.maxScore !== undefined ? `, best match ${e.maxScore.toFixed(2)}` : ''}`);
    if (e.queries.length) out.push(`      queries: ${e.queries.map((q) => JSON.stringify(q)).join(', ')}`);
    const sessions = [...new Set(e.sessions.map((s) => s.sessionId))];
    if (sessions.length) out.push(`      sessions: ${sessions.join(', ')}`);
    if (e.promotedAt) out.push(`      promoted ${e.promotedAt}`);
  }
  if (p.score !== undefined) out.push(`      score ${p.score}`);
  return out;
}

/** The history as text for a person. */
export function formatHistory(h: MemoryHistory): string {
  const out: string[] = [];
  if (!h.store.found) out.push(`No dreaming state found (${h.store.file}): only the versions Cairn saw are listed.`);
  else if (h.store.problem) out.push(`Dreaming's state could not be read: ${h.store.problem}`);
  else if (h.store.workspaceMatch === 'relocated') out.push(`Dreaming's state was recorded for ${h.store.recordedWorkspace} (this dir was moved or copied).`);
  out.push(`MEMORY.md — ${h.versions.length} version${h.versions.length === 1 ? '' : 's'}`);
  for (const v of h.versions) {
    out.push('', `${v.at}  ${v.label}  (${v.contentHash.slice(0, 12)})`);
    for (const r of v.removed) out.push(`  - ${r}`);
    const promoted = new Set(v.promotions.map((p) => p.text));
    for (const a of v.added) if (!promoted.has(a)) out.push(`  + ${a}`);
    for (const p of v.promotions) out.push(...promotionLines(p));
  }
  if (h.waiting.length) {
    out.push('', `Not promoted (thresholds: ${h.thresholds.minRecallCount} recalls, ${h.thresholds.minUniqueQueries} distinct queries, score ${h.thresholds.minScore}):`);
    for (const c of h.waiting) {
      out.push(`  ${c.evidence.path}#L${c.evidence.startLine}-L${c.evidence.endLine}  ${c.evidence.snippet.slice(0, 80)}`);
      for (const r of c.reasons) out.push(`      ${r}`);
    }
  }
  if (h.deepReport) out.push('', `Dreaming's deep report (${h.deepReport.path}):`, ...h.deepReport.lines.map((l) => `  ${l}`));
  return `${out.join('\n')}\n`;
}

export function register(program: Command, rt: CliRuntime): void {
  const cmd = program.command('dreaming').description("OpenClaw's dreaming: MEMORY.md's history and where its entries came from, the Dream Diary and phase reports (read-only)");
  const common = (c: Command) => c.option('--agent <id>', 'agent id (default: main)').option('--json', 'print JSON');
  common(cmd.command('history').description('every version of MEMORY.md Cairn can find, what each added, and the evidence behind each promotion')).action(async (opts: DreamOptions) => {
    const o = { ...program.opts<GlobalOptions>(), ...opts };
    const ctx = await rt.context(o);
    const { memoryHistory } = await import('../../engine/dreaming/handlers');
    const h = memoryHistory(ctx, o.agent);
    if (o.json) rt.json(h);
    else rt.stdout(formatHistory(h));
  });
  common(cmd.command('reports').description("list DREAMS.md, the phase reports and the blocks dreaming manages in daily notes")).action(async (opts: DreamOptions) => {
    const o = { ...program.opts<GlobalOptions>(), ...opts };
    const api = await rt.api(o);
    const r = await api['dreaming.reports']( { ...(o.agent ? { agentId: o.agent } : {}) });
    if (o.json) return rt.json(r);
    const lines = r.files.map((f) => `${f.path}${f.kind === 'diary' ? '  (Dream Diary)' : `  (${f.phase} phase, ${f.date})`}`);
    lines.push(...r.managedBlocks.map((b) => `${b.path}#L${b.startLine}-L${b.endLine}  ${b.heading} — written by dreaming`));
    rt.stdout(lines.length ? `${lines.join('\n')}\n` : 'No dreaming reports in this workspace.\n');
  });
  common(cmd.command('report').description('print one of the reports (a path `cairn dreaming reports` lists)').argument('<path>', 'e.g. DREAMS.md or memory/dreaming/deep/2026-12-03.md')).action(async (p: string, opts: DreamOptions) => {
    const o = { ...program.opts<GlobalOptions>(), ...opts };
    const api = await rt.api(o);
    const r = await api['dreaming.report']( { path: p, ...(o.agent ? { agentId: o.agent } : {}) });
    if (o.json) rt.json(r);
    else rt.stdout(r.text.endsWith('\n') ? r.text : `${r.text}\n`);
  });
}
