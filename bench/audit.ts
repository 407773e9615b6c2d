/**
 * The compaction audit on a big transcript (issue 32): a synthetic session of `turns` turns
 * (user ask with identifiers, assistant reply, a 1.5 KB tool result) with a compaction every
 * `every` turns whose summary keeps half of the identifiers, parsed once, then audited.
 * Reports the file size, the audit's wall time and the heap it held. Wall time depends on
 * the machine's load: the row says the load average it was taken at.
 *
 *   node --import tsx bench/audit.ts [turns=20000] [every=2000]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { auditTranscript } from '../electron/engine/compaction/audit';
import { parseTranscript } from '../electron/engine/transcript/parse';

const turns = Number(process.argv[2] ?? 20_000);
const every = Number(process.argv[3] ?? 2_000);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-bench-audit-'));
const file = path.join(dir, 'big.jsonl');
const lines: string[] = [JSON.stringify({ type: 'session', version: 3, id: 'big', timestamp: '2026-01-01T00:00:00.000Z', cwd: dir })];
let parent: string | null = null;
let n = 0;
const add = (e: Record<string, unknown>) => {
  const id = (++n).toString(16).padStart(8, '0');
  lines.push(JSON.stringify({ id, parentId: parent, timestamp: new Date(Date.UTC(2026, 0, 1) + n * 1000).toISOString(), ...e }));
  parent = id;
  return id;
};
let firstOfPart = '';
for (let i = 0; i < turns; i++) {
  const ask = add({ type: 'message', message: { role: 'user', content: `Ticket OPS-${i}: check src/mod${i % 500}.ts on db${i % 50}.internal:${5000 + (i % 900)}.` } });
  if (i % every === 0) firstOfPart = ask;
  add({ type: 'message', message: { role: 'assistant', content: [{ type: 'text', text: `We decided to keep v1.${i % 40}.0 for OPS-${i}.` }] } });
  add({ type: 'message', message: { role: 'toolResult', toolCallId: `c${i}`, toolName: 'read', content: [{ type: 'text', text: `// mod${i}\n${'x'.repeat(1500)}` }], isError: false } });
  if ((i + 1) % every === 0) {
    const kept = Array.from({ length: every / 2 }, (_, k) => `OPS-${i - k}`).join(', ');
    add({ type: 'compaction', summary: `## Decisions\n- ${kept}`, firstKeptEntryId: firstOfPart, tokensBefore: 100_000, tokensAfter: 20_000 });
  }
}
fs.writeFileSync(file, `${lines.join('\n')}\n`);
const bytes = fs.statSync(file).size;
const t = parseTranscript(file, fs.readFileSync(file, 'utf8'));
global.gc?.();
const heap0 = process.memoryUsage().heapUsed;
const t0 = performance.now();
const audits = await auditTranscript(t, { sessionId: 'big', policy: 'strict', flushFor: () => ({ ran: null, evidence: 'bench', wrote: [], approximate: false }) });
const ms = performance.now() - t0;
const heap1 = process.memoryUsage().heapUsed;
const lost = audits.reduce((s, a) => s + a.lostCounts.identifiers, 0);
console.log('| turns | file | compactions | lost identifiers | audit wall time | heap after − before | load (1 min) |');
console.log('|---|---|---|---|---|---|---|');
console.log(`| ${turns.toLocaleString('en-US')} | ${(bytes / 1e6).toFixed(1)} MB | ${audits.length} | ${lost.toLocaleString('en-US')} | ${(ms / 1000).toFixed(2)} s | ${((heap1 - heap0) / 1e6).toFixed(0)} MB | ${os.loadavg()[0]?.toFixed(2)} |`);
fs.rmSync(dir, { recursive: true, force: true });
