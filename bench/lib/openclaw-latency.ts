/**
 * The added wall time per turn of Cairn's OpenClaw plugin (issue 30, Measure (a)), through the
 * real OpenClaw with a scripted model. Two identical OpenClaw dirs (the same memory notes),
 * one with the plugin loaded and one without, driven turn by turn in alternation so that the
 * machine's load falls on both alike:
 *
 * - warm: a Gateway per dir, one `openclaw agent` turn at a time through it (the plugin's
 *   bridge lives as long as the Gateway); the first turns of each are warm-up and not counted;
 * - cold: `openclaw agent --local` in a third and fourth dir: a new OpenClaw process per turn,
 *   so the plugin starts its bridge (Cairn's engine, the index opened) on every turn.
 *
 * What is timed, per turn: from the moment OpenClaw stamped the user's message (its
 * `message.timestamp` in the session store) to the arrival of the turn's first model request
 * at the scripted model — what OpenClaw does before the model is asked, hooks included. The
 * CLI's own start-up (seconds on a loaded machine) is outside it. The plugin's recall log adds
 * Cairn's own time per prompt (`tookMs`) and the outcome.
 */
import path from 'node:path';
import Database from 'better-sqlite3';
import { foreignStateHome } from '../../electron/engine/config/data-dir';
import { readRecallLogFile } from '../../electron/engine/openclaw/recall-read';
import { cairnIndex, contentText, makeOpenClawDir, openclawEnv, runOpenClaw, scriptedModel, startGateway, type OpenClawDir, type ModelRequest } from './openclaw-drive';
import { quantile } from './stats';

/** Questions about the notes the dirs hold (so recall has something to find). */
const QUESTIONS = [
  'What was the Lisbon trip codeword?',
  'Which database did we decide to use for the project?',
  'When is the dentist appointment?',
  'What did I say about the garden last week?',
  'Remind me what the deploy checklist says.',
  'Who is coming to dinner on Friday?',
];

export interface LatencyOptions {
  /** Memory notes to copy into each dir (a workspace folder). */
  workspace: string;
  warmTurns: number;
  coldTurns: number;
  log: (line: string) => void;
}

interface Arm {
  name: 'with plugin' | 'without';
  dir: OpenClawDir;
  requests: ModelRequest[];
  close: () => Promise<void>;
  ms: number[];
  cliMs: number[];
  /** Lines of OpenClaw's output (CLI or Gateway) from Cairn's plugin: its warnings. */
  warnings: string[];
}

/** `message.timestamp` of the user message `text` in `sessionId` (OpenClaw's SQLite store). */
function userStamp(dir: OpenClawDir, sessionId: string, text: string): number | undefined {
  const db = new Database(path.join(dir.stateDir, 'agents', 'main', 'agent', 'openclaw-agent.sqlite'), { readonly: true, fileMustExist: true });
  try {
    const rows = db.prepare('SELECT event_json FROM transcript_events WHERE session_id = ? AND event_json IS NOT NULL ORDER BY seq DESC LIMIT 200').all(sessionId) as { event_json: string }[];
    for (const r of rows) {
      const e = JSON.parse(r.event_json) as { type?: string; message?: { role?: string; content?: unknown; timestamp?: number } };
      if (e.type === 'message' && e.message?.role === 'user' && contentText(e.message.content) === text) return e.message.timestamp;
    }
    return undefined;
  } finally {
    db.close();
  }
}

async function makeArm(name: Arm['name'], workspace: string): Promise<Arm> {
  const model = await scriptedModel(() => ({ text: 'Noted.' }));
  const dir = await makeOpenClawDir({ baseUrl: model.baseUrl, plugin: name === 'with plugin', copy: [{ from: workspace, to: 'workspace' }] });
  if (name === 'with plugin') await cairnIndex(dir);
  return { name, dir, requests: model.requests, close: model.close, ms: [], cliMs: [], warnings: [] };
}

/** One turn of `arm`; records its pre-model time unless it is a warm-up. */
async function turn(arm: Arm, sessionId: string, text: string, local: boolean, count: boolean): Promise<void> {
  const before = arm.requests.length;
  const args = ['agent', ...(local ? ['--local'] : []), '--session-id', sessionId, '--message', text];
  const r = await runOpenClaw(args, openclawEnv(arm.dir));
  if (r.code !== 0) throw new Error(`${arm.name}: openclaw agent failed (${r.code}): ${r.out.slice(-1500)}`);
  const first = arm.requests[before];
  const stamp = userStamp(arm.dir, sessionId, text);
  if (!first || stamp === undefined) throw new Error(`${arm.name}: no model request or no user message recorded for "${text}"`);
  if (count) {
    arm.warnings.push(...pluginLines(r.out));
    arm.ms.push(first.at - stamp);
    arm.cliMs.push(r.ms);
  }
}

/** Cairn's side of the plugin arm: the recall log's outcomes and `tookMs`. */
function recallLog(arm: Arm, sessionId: string): { outcomes: Record<string, number>; tookMs: number[] } {
  const home = foreignStateHome(arm.dir.stateDir, { CAIRN_DATA_DIR: arm.dir.dataDir });
  const log = readRecallLogFile(path.join(home, 'openclaw-recall', 'main', `${sessionId}.jsonl`));
  const outcomes: Record<string, number> = {};
  for (const r of log.records) outcomes[r.outcome] = (outcomes[r.outcome] ?? 0) + 1;
  return { outcomes, tookMs: log.records.map((r) => r.tookMs) };
}

/** Lines of OpenClaw's output that Cairn's plugin wrote (they start with or name `cairn:`). */
function pluginLines(out: string): string[] {
  return out.split('\n').filter((l) => /\bcairn:/i.test(l)).map((l) => l.trim().slice(0, 300));
}

/** The distinct warnings, with counts, for the table. */
function warningsCell(lines: string[]): string {
  const counts = new Map<string, number>();
  for (const l of lines) {
    const k = l.replace(/^.*?\bcairn:/i, 'cairn:').replace(/\d+(\.\d+)? ?ms/g, 'N ms');
    counts.set(k, (counts.get(k) ?? 0) + 1);
  }
  return [...counts].map(([k, n]) => `${n}× ${k.replace(/\|/g, '/')}`).join('; ') || '–';
}

/** The median of with − without per round (both arms ran round i back to back), rounded. */
function pairedMedian(p: Arm, n: Arm): number {
  return Math.round(quantile(p.ms.map((x, i) => x - (n.ms[i] ?? Number.NaN)).filter(Number.isFinite), 0.5));
}

const fmt = (xs: number[], p: number) => (xs.length ? `${Math.round(quantile(xs, p))}` : '–');

/** Run the warm and cold comparisons; returns the Markdown table. */
export async function runLatency(o: LatencyOptions): Promise<string> {
  const rows: string[] = ['| mode | arm | turns | before the model p50 (ms) | p95 | CLI wall p50 (ms) | Cairn recall p50 / p95 (ms) | outcomes (Cairn’s log) | plugin warnings (OpenClaw’s log) |', '|---|---|---:|---:|---:|---:|---:|---|---|'];
  if (o.warmTurns > 0) {
    const arms = [await makeArm('with plugin', o.workspace), await makeArm('without', o.workspace)];
    const gws = [];
    try {
      for (const a of arms) gws.push(await startGateway(a.dir));
      for (const a of arms) for (let i = 0; i < 2; i++) await turn(a, 'bench-warm', `warm-up ${i}: ${QUESTIONS[i]}`, false, false);
      for (let i = 0; i < o.warmTurns; i++) {
        const order = i % 2 === 0 ? arms : [...arms].reverse();
        for (const a of order) await turn(a, 'bench-warm', `${QUESTIONS[i % QUESTIONS.length]} (turn ${i})`, false, true);
        o.log(`warm ${i + 1}/${o.warmTurns}: ${arms.map((a) => `${a.name} ${a.ms.at(-1)} ms`).join(', ')}`);
      }
      (arms[0] as Arm).warnings.push(...pluginLines((gws[0] as { log: () => string }).log()));
      for (const a of arms) {
        const log = a.name === 'with plugin' ? recallLog(a, 'bench-warm') : undefined;
        rows.push(`| warm (Gateway) | ${a.name} | ${a.ms.length} | ${fmt(a.ms, 0.5)} | ${fmt(a.ms, 0.95)} | ${fmt(a.cliMs, 0.5)} | ${log ? `${fmt(log.tookMs, 0.5)} / ${fmt(log.tookMs, 0.95)}` : '–'} | ${log ? JSON.stringify(log.outcomes) : '–'} | ${warningsCell(a.warnings)} |`);
      }
      const [p, n] = arms as [Arm, Arm];
      rows.push(`| warm | **added by the plugin** (p50 with − p50 without; median of the rounds' paired differences) | | **${Math.round(quantile(p.ms, 0.5) - quantile(n.ms, 0.5))}**; paired ${pairedMedian(p, n)} | | | | | |`);
    } finally {
      for (const g of gws) await g.stop();
      for (const a of arms) await a.close();
    }
  }
  if (o.coldTurns > 0) {
    const arms = [await makeArm('with plugin', o.workspace), await makeArm('without', o.workspace)];
    try {
      // The first run of each builds what later runs reuse (OpenClaw's stores, Cairn's index).
      for (const a of arms) await turn(a, 'bench-cold-0', `warm-up: ${QUESTIONS[0]}`, true, false);
      for (let i = 0; i < o.coldTurns; i++) {
        const order = i % 2 === 0 ? arms : [...arms].reverse();
        for (const a of order) await turn(a, `bench-cold-${i + 1}`, `${QUESTIONS[i % QUESTIONS.length]} (turn ${i})`, true, true);
        o.log(`cold ${i + 1}/${o.coldTurns}: ${arms.map((a) => `${a.name} ${a.ms.at(-1)} ms`).join(', ')}`);
      }
      for (const a of arms) {
        const logs = a.name === 'with plugin' ? Array.from({ length: o.coldTurns }, (_, i) => recallLog(a, `bench-cold-${i + 1}`)) : undefined;
        const took = logs?.flatMap((l) => l.tookMs) ?? [];
        const outcomes: Record<string, number> = {};
        for (const l of logs ?? []) for (const [k, v] of Object.entries(l.outcomes)) outcomes[k] = (outcomes[k] ?? 0) + v;
        rows.push(`| cold (\`agent --local\`) | ${a.name} | ${a.ms.length} | ${fmt(a.ms, 0.5)} | ${fmt(a.ms, 0.95)} | ${fmt(a.cliMs, 0.5)} | ${logs ? `${fmt(took, 0.5)} / ${fmt(took, 0.95)}` : '–'} | ${logs ? JSON.stringify(outcomes) : '–'} | ${warningsCell(a.warnings)} |`);
      }
      const [p, n] = arms as [Arm, Arm];
      rows.push(`| cold | **added by the plugin** (p50 with − p50 without; median of the rounds' paired differences) | | **${Math.round(quantile(p.ms, 0.5) - quantile(n.ms, 0.5))}**; paired ${pairedMedian(p, n)} | | | | | |`);
    } finally {
      for (const a of arms) await a.close();
    }
  }
  return rows.join('\n');
}
