/**
 * What the concurrent-writer safety costs and buys (issue 10): the compaction write on a
 * 50 MB transcript (checkpoint copy + in-place append + fsync, under the lock), one
 * sessions.json update under its lock, and the race — compactions beside a lock-free
 * O_APPEND appender child — counting lines lost. Prints a Markdown table.
 *
 *   node --import tsx bench/write-safety.ts [rounds=20]
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { writeCompaction } from '../electron/engine/compaction/write';
import { appendLinesDurable, createTranscriptFile } from '../electron/engine/transcript/append';
import { readTranscript } from '../electron/engine/transcript/read';
import { prefixFingerprint } from '../electron/engine/transcript/prefix';
import { updateSessionEntry } from '../electron/engine/transcript/sessions-index';
import type { CompactionEntry } from '../electron/engine/transcript/types';
import { median } from './lib/stats';

const rounds = Number(process.argv[2] ?? 20);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-bench-write-'));

function transcript(name: string, bytes: number): string {
  const file = path.join(dir, `${name}.jsonl`);
  createTranscriptFile(file, { id: name, timestamp: '2025-03-01T00:00:00.000Z', cwd: dir });
  const text = 'x'.repeat(1500);
  let parent: string | null = null;
  let lines: string[] = [];
  for (let i = 0; fs.statSync(file).size < bytes; i++) {
    const id = `m${i.toString(16).padStart(7, '0')}`;
    lines.push(JSON.stringify({ type: 'message', id, parentId: parent, timestamp: '2025-03-01T00:00:00.000Z', message: { role: i % 2 ? 'assistant' : 'user', content: `${i} ${text}` } }));
    parent = id;
    if (lines.length === 2000) {
      appendLinesDurable(file, lines);
      lines = [];
    }
  }
  if (lines.length) appendLinesDurable(file, lines);
  return file;
}

const entry = (i: number, parentId: string | null): CompactionEntry =>
  ({ type: 'compaction', id: `c${String(i).padStart(7, '0')}`, parentId, timestamp: new Date().toISOString(), summary: `summary ${i}`, firstKeptEntryId: 'none', tokensBefore: 1 }) as CompactionEntry;

const rows: string[][] = [];

// 1. The compaction write on 50 MB.
{
  const file = transcript('big', 50 * 1024 * 1024);
  const times: number[] = [];
  for (let i = 0; i < 5; i++) {
    const t = readTranscript(file);
    const t0 = performance.now();
    await writeCompaction(file, entry(i, t.entries.at(-1)?.id ?? null), prefixFingerprint(file, t.bytes));
    times.push(performance.now() - t0);
  }
  rows.push(['compaction write, 50 MB transcript (checkpoint copy + O_APPEND entry + fsync, under the lock)', `${median(times).toFixed(0)} ms median of 5`]);
}

// 2. sessions.json update under the lock.
{
  const file = path.join(dir, 'sessions.json');
  for (let i = 0; i < 100; i++) await updateSessionEntry(file, `s${i}`, { updatedAt: i });
  const times: number[] = [];
  for (let i = 0; i < 200; i++) {
    const t0 = performance.now();
    await updateSessionEntry(file, `s${i % 100}`, { updatedAt: 1000 + i });
    times.push(performance.now() - t0);
  }
  rows.push(['sessions.json update, 100 sessions (lock, re-read, atomic write)', `${median(times).toFixed(2)} ms median of 200`]);
}

// 3. The race.
{
  const file = transcript('race', 2 * 1024 * 1024);
  const script = path.join(dir, 'appender.mjs');
  fs.writeFileSync(
    script,
    `import fs from 'node:fs';
const fd = fs.openSync(process.argv[2], 'a'); let n = 0, stop = false;
process.stdin.on('end', () => { stop = true; }).resume();
const tick = () => { for (let k = 0; k < 20 && !stop; k++) { fs.writeSync(fd, JSON.stringify({ type: 'custom', id: 'ext' + n, parentId: null, timestamp: new Date().toISOString(), customType: 'ext', data: { n } }) + '\\n'); fs.fsyncSync(fd); if (n++ === 0) process.stdout.write('ready\\n'); }
  if (stop) process.stdout.write('done ' + n + '\\n'); else setImmediate(tick); };
tick();`,
  );
  const child = spawn(process.execPath, [script, file], { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = readline.createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  await lines.next();
  for (let i = 0; i < rounds; i++) {
    const t = readTranscript(file);
    await writeCompaction(file, entry(i, t.entries.at(-1)?.id ?? null), prefixFingerprint(file, t.bytes), { checkpoint: i % 2 === 0 });
    await new Promise((resolve) => setImmediate(resolve));
  }
  child.stdin.end();
  const written = Number(String((await lines.next()).value).split(' ')[1]);
  const ids = new Set(readTranscript(file).entries.map((e) => e.id));
  const lost = Array.from({ length: written }, (_, n) => `ext${n}`).filter((id) => !ids.has(id)).length;
  rows.push([`${rounds} compactions beside a lock-free O_APPEND appender child`, `${lost} of ${written} appended lines lost`]);
}

fs.rmSync(dir, { recursive: true, force: true });
console.log('| what | measured |\n| --- | --- |');
for (const r of rows) console.log(`| ${r.join(' | ')} |`);
