/**
 * Identifier retention of compaction summaries (issue 15 item 5): on a set of sessions, the
 * share of the old part's identifiers (paths, ports, URLs, hashes, ids — compaction/
 * identifiers.ts) present in the model's own summary ("model only") and in what compaction
 * writes after completeIdentifiers() ("merged"); plus how often the summary judge refused the
 * model's text. Uses the local test chat model (SmolLM2-135M-Instruct, fetched by
 * scripts/fetch-test-models.mjs) through node-llama-cpp on the CPU; prints Markdown tables.
 *
 *   node --import tsx bench/retention.ts [sessions=4] [maxOutputTokens=400] [threads=2]
 *
 * threads: llama.cpp threads (2 = node-llama-cpp's default on a 2-core box; 1 finishes
 * sooner when other processes hold the cores).
 *
 * Answers are capped at maxOutputTokens (compaction would allow 20% of the window, 1,638
 * tokens): a 135M model that loops otherwise writes until the cap, which on the shared
 * 2-core machine costs minutes per call; a real summary of 8 messages fits well within 400.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { compact } from '../electron/engine/compaction/compact';
import { judgeSummary } from '../electron/engine/compaction/quality';
import { identifierRetention } from '../electron/engine/compaction/retention';
import { CompactionSchema } from '../electron/engine/config/schema';
import { LlamaLlm } from '../electron/engine/llm/llama';
import type { ChatRequest, ChatResult, LLM } from '../electron/engine/llm/types';
import { createTranscriptFile } from '../electron/engine/transcript/append';
import { openSessionFile } from '../electron/engine/transcript/session-file';
import type { Message } from '../shared/types/messages';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const N = Number(process.argv[2] ?? 4);
const CAP = Number(process.argv[3] ?? 400);
const THREADS = Number(process.argv[4] ?? 2);
const usage = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0 };

function chatModel(): string {
  const r = spawnSync(process.execPath, [path.join(root, 'scripts/fetch-test-models.mjs'), '--json'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  const chat = r.status === 0 ? (JSON.parse(r.stdout) as { chat: string | null }).chat : null;
  if (!chat) throw new Error('the test chat model is missing: run node scripts/fetch-test-models.mjs');
  return chat;
}

/** Session `k`: a small ops/coding conversation carrying ~20 identifiers of every class. */
function sessionMessages(k: number): Message[] {
  const svc = ['billing', 'search', 'auth', 'mailer', 'ledger', 'gateway', 'reports', 'uploads'][k % 8] as string;
  const port = 8000 + k * 111;
  const sha = (k * 2654435761 + 0x9fceb02d).toString(16).padStart(8, '0').slice(0, 8) + 'a1c3e5';
  const a = (text: string, calls: { name: string; arguments: Record<string, unknown> }[] = []): Message => ({
    role: 'assistant',
    content: [{ type: 'text', text }, ...calls.map((c, i) => ({ type: 'toolCall' as const, id: `call_${k}_${i}`, name: c.name, arguments: c.arguments }))],
    provider: 'x', model: 'y', usage, stopReason: calls.length ? 'toolUse' : 'stop', timestamp: 1,
  });
  const tool = (text: string): Message => ({ role: 'toolResult', toolCallId: `call_${k}_0`, toolName: 'bash', content: [{ type: 'text', text }], isError: false, timestamp: 1 });
  return [
    { role: 'user', content: `The ${svc} service fails its health check on localhost:${port} since commit ${sha}. Config is in services/${svc}/config.yaml, ticket OPS-${400 + k}.`, timestamp: 1 },
    a(`Checking services/${svc}/config.yaml and the logs.`, [{ name: 'bash', arguments: { command: `tail -n 50 /var/log/${svc}/error.log` } }]),
    tool(`2025-03-0${(k % 9) + 1}T10:12:01Z ERROR listen EADDRINUSE 0.0.0.0:${port}\n2025-03-0${(k % 9) + 1}T10:12:02Z WARN retrying with PORT=${port + 1}\nsee https://runbooks.example.com/${svc}/eaddrinuse`),
    a(`Another process holds port ${port}. The fallback PORT=${port + 1} is also taken by ${svc}-worker (pid ${4000 + k}). We decided to move ${svc} to port ${port + 2} and pin node v20.11.1.`),
    { role: 'user', content: `Agreed. Also update docs/${svc}/deploy.md and keep the rollout behind flag ${svc}_canary_v${k + 2}. Never restart db-${k}.internal:5432 during business hours.`, timestamp: 1 },
    a(`Editing docs/${svc}/deploy.md.`, [{ name: 'edit', arguments: { path: `docs/${svc}/deploy.md`, oldText: `port ${port}`, newText: `port ${port + 2}` } }]),
    tool(`Edited docs/${svc}/deploy.md (1 replacement). CI run https://ci.example.com/runs/${90210 + k} queued.`),
    a(`Done. TODO: bump the chart in charts/${svc}/values.yaml to image tag ${svc}:1.${k}.3 and rerun ${'`'}npm test -- tests/${svc}/health.test.ts${'`'}.`),
  ];
}

/** Records the text of every answer, so the model's own summary can be measured. */
class Recording implements LLM {
  readonly answers: string[] = [];
  constructor(private readonly inner: LLM) {}
  get provider() { return this.inner.provider; }
  get model() { return this.inner.model; }
  get contextWindow() { return this.inner.contextWindow; }
  async chat(req: ChatRequest): Promise<ChatResult> {
    const r = await this.inner.chat({ ...req, maxTokens: Math.min(req.maxTokens ?? CAP, CAP) });
    this.answers.push(r.message.content.filter((b) => b.type === 'text').map((b) => (b as { text: string }).text).join('').trim());
    return r;
  }
  async dispose() {}
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-bench-retention-'));
const load0 = os.loadavg().map((x) => x.toFixed(1)).join(' / ');
const llama = new LlamaLlm({ modelPath: chatModel(), contextSize: 8192, threads: THREADS });
const rows: string[] = [];
let sumModel = 0;
let sumMerged = 0;
let ids = 0;
const faults = new Map<string, number>();
try {
  for (let k = 0; k < N; k++) {
    const file = path.join(dir, `s${k}.jsonl`);
    createTranscriptFile(file, { id: `s${k}`, timestamp: '2025-03-01T00:00:00.000Z', cwd: dir });
    openSessionFile(file).append(...sessionMessages(k).map((message) => ({ type: 'message' as const, message })));
    const llm = new Recording(llama);
    const t0 = Date.now();
    const r = await compact({ file, settings: CompactionSchema.parse({}), contextWindowTokens: 8192, llm, all: true, checkpoint: false });
    if (!r.compacted) throw new Error(`session ${k} not compacted: ${r.reason}`);
    const oldPart = r.plan.pieces.map((p) => p.text).join('\n\n');
    // The model's last answer (the one kept, or the second refused one).
    const own = llm.answers.at(-1) ?? '';
    const m = identifierRetention(oldPart, own);
    const merged = identifierRetention(oldPart, r.summary);
    for (const a of llm.answers) {
      const v = judgeSummary(a);
      const key = v.ok ? 'accepted' : v.fault;
      faults.set(key, (faults.get(key) ?? 0) + 1);
    }
    sumModel += m.kept;
    sumMerged += merged.kept;
    ids += m.total;
    rows.push(`| s${k} | ${m.total} | ${m.kept} (${(m.share * 100).toFixed(0)}%) | ${merged.kept} (${(merged.share * 100).toFixed(0)}%) | ${r.extract ? `extract: ${r.extractReason}` : r.entry.details?.summaryRetried ? 'model, 2nd try' : 'model'} | ${llm.answers.length} | ${((Date.now() - t0) / 1000).toFixed(1)} s |`);
    console.error(rows.at(-1));
  }
} finally {
  await llama.dispose();
  fs.rmSync(dir, { recursive: true, force: true });
}
console.log(`\nIdentifier retention, ${llama.model} (8k context, ${THREADS} thread(s), answers ≤ ${CAP} tokens), ${N} sessions of 8 messages (~20 identifiers each), compact --all; load average ${load0} at start, ${os.loadavg().map((x) => x.toFixed(1)).join(' / ')} at end\n`);
console.log('| session | identifiers | model only | merged (what is written) | summary used | model calls | wall |');
console.log('|---|---|---|---|---|---|---|');
for (const r of rows) console.log(r);
console.log(`| **all** | ${ids} | ${sumModel} (${((sumModel / ids) * 100).toFixed(0)}%) | ${sumMerged} (${((sumMerged / ids) * 100).toFixed(0)}%) | | | |`);
console.log(`\nJudge verdicts over every answer: ${[...faults].map(([k, v]) => `${k} ${v}`).join(', ')}`);
