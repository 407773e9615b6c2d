/**
 * What the compacted-part recall (issue 37 item 5, electron/engine/openclaw/compacted-recall.ts)
 * costs a prompt: a synthetic OpenClaw-style session of about `mb` MB (bench/lib/context-data.ts:
 * turns with tool results, a compaction every ~2,000 turns) in a temp state dir, then
 *   - the first recall after Cairn starts (parse, audit, rendered lines),
 *   - each later prompt after one more turn was appended (the tail check: no parse),
 *   - a prompt after a new compaction was appended (parse, audit again),
 * each with a different question. Prints a Markdown table with the load (`uptime`): the machine may be shared.
 *
 *   node --import tsx bench/compacted-recall.ts [mb=20] [prompts=30]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createEngine } from '../electron/engine/engine';
import { compactedRecall } from '../electron/engine/openclaw/compacted-recall';
import { writeTranscript } from './lib/context-data';
import { quantile, timed } from './lib/stats';

const mb = Number(process.argv[2] ?? 20);
const prompts = Number(process.argv[3] ?? 30);
const uptime = () => `load average: ${os.loadavg().map((l) => l.toFixed(2)).join(', ')} (${os.cpus().length} cores)`;

async function main(): Promise<void> {
  console.log(`${new Date().toISOString()} ${uptime()}\n`);
  const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-bench-compacted-'));
  const file = path.join(stateDir, 'agents', 'main', 'sessions', 'bench.jsonl');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const { entries } = writeTranscript(file, mb);
  const engine = createEngine({ stateDir });
  const ask = (i: number) => compactedRecall(engine.ctx, 'main', 'bench', `what did we say about port ${3000 + ((i * 37) % 1000)} and src/mod${(i * 53) % 1500}.ts?`);
  let last = '';
  const appendTurn = (i: number) => {
    const id = `t${i}`;
    fs.appendFileSync(file, `${JSON.stringify({ type: 'message', id, parentId: last || undefined, timestamp: new Date().toISOString(), message: { role: 'user', content: `one more turn ${i}` } })}\n`);
    last = id;
  };
  // The appended turns continue the file's last entry.
  const tail = fs.readFileSync(file, 'utf8').trimEnd().split('\n').at(-1) ?? '{}';
  last = (JSON.parse(tail) as { id: string }).id;
  try {
    const first = await timed(() => ask(0));
    const warm: number[] = [];
    for (let i = 1; i <= prompts; i++) {
      appendTurn(i);
      warm.push((await timed(() => ask(i))).wallMs);
    }
    fs.appendFileSync(file, `${JSON.stringify({ type: 'compaction', id: 'cnew', parentId: last, timestamp: new Date().toISOString(), summary: 'Later.', firstKeptEntryId: last, tokensBefore: 150000 })}\n`);
    const again = await timed(() => ask(prompts + 1));
    const mbOnDisk = (fs.statSync(file).size / 1024 / 1024).toFixed(1);
    console.log(`| session | first prompt (parse + audit) ms | next prompts p50 / p95 ms (${prompts}, one turn appended each) | after a new compaction ms | hits |`);
    console.log('|---|---:|---:|---:|---:|');
    console.log(
      `| ${mbOnDisk} MB, ${entries.toLocaleString()} entries | ${first.wallMs.toFixed(0)} | ${quantile(warm, 0.5).toFixed(2)} / ${quantile(warm, 0.95).toFixed(2)} | ${again.wallMs.toFixed(0)} | ${first.value.length} |`,
    );
  } finally {
    await engine.dispose();
    fs.rmSync(stateDir, { recursive: true, force: true });
  }
  console.log(`\n${new Date().toISOString()} ${uptime()}`);
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exitCode = 1;
});
