/**
 * Auto-recall hit rate (issue 30, Measure (b)): LoCoMo questions of the shared development
 * half (../shared/eval/locomo-dev, evaluation only: read from there, copied only into temp
 * dirs, never into the repository) asked as user messages through the real OpenClaw with
 * Cairn's plugin and a scripted model. Per question the scripted model records the turn's
 * first request — the user message carries the `<relevant-memories>` section Cairn added, if
 * any — then calls OpenClaw's own `memory_search` with the question and records its answer.
 * Both are scored as `npm run eval -- --locomo` scores a result list (bench/lib/locomo.ts):
 * turn recall = share of the evidence turns whose line lies in a cited range of the same file
 * (the injected hits: all of them, at most the plugin's maxHits within its token budget;
 * memory_search: its first 6 results).
 */
import fs from 'node:fs';
import path from 'node:path';
import { loadLocomo, type LocomoConversation } from './locomo';
import { cairnIndex, contentText, makeOpenClawDir, openclawEnv, relevantSection, runOpenClaw, scriptedModel, startGateway, type ChatBody } from './openclaw-drive';

interface Range {
  path: string;
  startLine: number;
  endLine: number;
}

/** The cited ranges of a `<relevant-memories>` section, in order (`memory/x.md#L3-L9`). */
export function sectionRanges(section: string): Range[] {
  const out: Range[] = [];
  for (const m of section.matchAll(/((?:memory|sessions)\/[^\s#)\]]+?)#L(\d+)(?:-L(\d+))?/g)) {
    const start = Number(m[2]);
    out.push({ path: m[1] as string, startLine: start, endLine: Number(m[3] ?? start) });
  }
  return out;
}

/**
 * The results of a memory_search tool answer, in order; [] and the error when it has none.
 * Called directly the answer is memory_search's JSON; through tool search's `tool_call` it is
 * wrapped as `{tool, result: {content: [{text: <that JSON>}], details: <that object>}}`.
 */
export function toolRanges(text: string): { ranges: Range[]; error?: string } {
  // OpenClaw cuts a long tool answer ("[... N more characters truncated …]"), so the JSON may
  // not parse: the results are read in order from the text (escaped or not), each range once.
  const ranges: Range[] = [];
  const seen = new Set<string>();
  const re = /\\?"path\\?":\s*\\?"([^"\\]+)\\?",(?:\s|\\n)*\\?"startLine\\?":\s*(\d+),(?:\s|\\n)*\\?"endLine\\?":\s*(\d+)/g;
  for (const m of text.matchAll(re)) {
    const key = `${m[1]}#${m[2]}-${m[3]}`;
    if (seen.has(key)) continue;
    seen.add(key);
    ranges.push({ path: m[1] as string, startLine: Number(m[2]), endLine: Number(m[3]) });
  }
  const err = /\\?"error\\?":\s*\\?"([^"\\]+)/.exec(text)?.[1];
  return { ranges, ...(ranges.length === 0 ? { error: err ?? (text.slice(0, 120) || 'no answer') } : {}) };
}

/** Evidence of one question as map.json places it. */
type Evidence = { file: string; line: number; jsonl: string; jsonlLine: number };

/** Turn recall: the share of the evidence turns whose line lies in one of the ranges. */
export function evidenceRecall(evidence: Evidence[], ranges: Range[]): number {
  if (!evidence.length) return 0;
  const hit = evidence.filter((e) => {
    const sess = `sessions/${path.basename(e.jsonl)}`;
    return ranges.some((r) => (r.path === e.file && e.line >= r.startLine && e.line <= r.endLine) || (r.path === sess && e.jsonlLine >= r.startLine && e.jsonlLine <= r.endLine));
  }).length;
  return hit / evidence.length;
}

/** Score the questions a run dumped (CAIRN_BENCH_DUMP): one row per question. */
export function rescoreDump(file: string): HitRow[] {
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => {
      const d = JSON.parse(l) as { qid: string; evidence: Evidence[]; injected?: string; tool?: string };
      const inj = sectionRanges(d.injected ?? '');
      const tool = toolRanges(d.tool ?? '');
      return { qid: d.qid, injected: inj.length, injectedRecall: evidenceRecall(d.evidence, inj), toolResults: Math.min(6, tool.ranges.length), toolRecall: evidenceRecall(d.evidence, tool.ranges.slice(0, 6)), ...(tool.error ? { toolError: tool.error } : {}) };
    });
}

/** Turn recall of one question of `c`. */
function turnRecall(c: LocomoConversation, evidence: string[], ranges: Range[]): number {
  return evidenceRecall(evidence.flatMap((e): Evidence[] => { const m = c.map[e]; return m ? [m] : []; }), ranges);
}

export interface HitRow {
  qid: string;
  injected: number;
  injectedRecall: number;
  toolResults: number;
  toolRecall: number;
  toolError?: string;
}

/** Ask `perConversation` questions of each conversation under `root`; returns per-question rows. */
export async function runHits(root: string, perConversation: number, log: (l: string) => void, conversations = Infinity): Promise<HitRow[]> {
  const rows: HitRow[] = [];
  for (const c of loadLocomo(root).slice(0, conversations)) {
    const qs = c.queries.filter((q) => q.evidence.some((e) => c.map[e])).slice(0, perConversation);
    let current: { injected?: string; tool?: string; tools?: string[] } = {};
    let question = '';
    let called = false;
    const model = await scriptedModel((body: ChatBody) => {
      if (!called) {
        // The turn's first request: the section may sit in any user message (OpenClaw adds its own context messages).
        called = true;
        const users = body.messages.filter((m) => m.role === 'user').map((m) => contentText(m.content));
        current.injected = users.map(relevantSection).filter(Boolean).join('\n');
        current.tools = body.tools?.map((t) => t.function.name);
        const names = new Set(current.tools ?? []);
        const args = { query: question, maxResults: 6 };
        // With tool search on (OpenClaw's default), memory_search is reached through tool_call.
        if (names.has('memory_search')) return { tool: 'memory_search', args };
        if (names.has('tool_call')) return { tool: 'tool_call', args: { id: 'memory_search', args } };
        return { text: 'No memory tool.' };
      }
      const tool = [...body.messages].reverse().find((m) => m.role === 'tool');
      if (tool && current.tool === undefined) current.tool = contentText(tool.content);
      return { text: 'Done.' };
    });
    const dir = await makeOpenClawDir({ baseUrl: model.baseUrl, plugin: true, copy: [{ from: path.join(c.dir, 'workspace'), to: 'workspace' }] });
    await cairnIndex(dir);
    const gw = await startGateway(dir);
    try {
      // OpenClaw indexes its own memory on its first search: a warm-up turn, not counted.
      question = 'What do you remember about me?';
      await runOpenClaw(['agent', '--session-id', `warm-${c.id}`, '--message', question], openclawEnv(dir));
      for (const q of qs) {
        current = {};
        question = q.question;
        called = false;
        const r = await runOpenClaw(['agent', '--session-id', `q-${q.qid}`, '--message', q.question], openclawEnv(dir));
        if (r.code !== 0) throw new Error(`openclaw agent failed for ${q.qid} (${r.code}): ${r.out.slice(-1500)}`);
        const inj = sectionRanges(current.injected ?? '');
        const tool = toolRanges(current.tool ?? '');
        const row: HitRow = { qid: q.qid, injected: inj.length, injectedRecall: turnRecall(c, q.evidence, inj), toolResults: Math.min(6, tool.ranges.length), toolRecall: turnRecall(c, q.evidence, tool.ranges.slice(0, 6)), ...(tool.error ? { toolError: tool.error } : {}) };
        rows.push(row);
        if (process.env.CAIRN_BENCH_DUMP) fs.appendFileSync(process.env.CAIRN_BENCH_DUMP, `${JSON.stringify({ qid: q.qid, evidence: q.evidence.map((e) => c.map[e]), ...current, out: r.out.slice(-2000) })}\n`);
        log(`${q.qid}: injected ${row.injected} (recall ${row.injectedRecall.toFixed(2)}), memory_search ${row.toolResults} (recall ${row.toolRecall.toFixed(2)})${row.toolError ? ` [${row.toolError}]` : ''}`);
      }
    } finally {
      await gw.stop();
      await model.close();
      if (!process.env.CAIRN_BENCH_KEEP) fs.rmSync(path.dirname(dir.stateDir), { recursive: true, force: true });
    }
  }
  return rows;
}

/** The hit-rate table. */
export function hitsTable(rows: HitRow[]): string {
  const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : NaN);
  const answered = rows.filter((r) => !r.toolError);
  const withSection = rows.filter((r) => r.injected > 0).length;
  return [
    '| questions | turns with Cairn’s section | auto-recall turn recall | hits injected / question | memory_search answered | memory_search turn recall (k ≤ 6), all questions | … answered questions only | auto-recall on those |',
    '|---:|---:|---:|---:|---:|---:|---:|---:|',
    `| ${rows.length} | ${withSection} | **${mean(rows.map((r) => r.injectedRecall)).toFixed(3)}** | ${mean(rows.map((r) => r.injected)).toFixed(1)} | ${answered.length} | **${mean(rows.map((r) => r.toolRecall)).toFixed(3)}** | ${mean(answered.map((r) => r.toolRecall)).toFixed(3)} | ${mean(answered.map((r) => r.injectedRecall)).toFixed(3)} |`,
  ].join('\n');
}
