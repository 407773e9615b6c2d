/**
 * `sessions.list` on OpenClaw's live WAL-mode store: a store padded to N MB (OpenClaw's
 * other tables, as a months-old store holds its memory index and run traces) with a second
 * process writing events through its -wal all the while (testkit/openclaw-live-writer-child.mjs).
 * For each size, a fresh process lists the sessions R times (the Sessions page polling) and
 * reports the first (cold) list, p50/p95 of the rest and its peak RSS, and checks that no
 * copy of the database was made. Prints a Markdown table.
 * Run: node --import tsx bench/openclaw-store-live.ts   (BENCH_SIZES_MB=50,200 BENCH_ROUNDS=40 BENCH_PACE_MS=100)
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import Database from 'better-sqlite3';

const FIXTURE = path.resolve('tests/fixtures/openclaw-2026.9.6/state');
const WRITER = path.resolve('testkit/openclaw-live-writer-child.mjs');
const SIZES = (process.env.BENCH_SIZES_MB ?? '50,200').split(',').map(Number);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 40);
/** Milliseconds between the writer's steps of 2 events (100: 20 events/s, far more than a chat turn writes). */
const PACE_MS = Number(process.env.BENCH_PACE_MS ?? 100);

/** A copy of the fixture's state dir whose database is padded to about `mb` MB, in WAL mode. */
function build(mb: number): { stateDir: string; dbFile: string } {
  const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-bench-live-'));
  fs.cpSync(FIXTURE, stateDir, { recursive: true });
  const dbFile = path.join(stateDir, 'agents', 'main', 'agent', 'openclaw-agent.sqlite');
  const db = new Database(dbFile);
  db.pragma('synchronous = OFF');
  const pad = db.prepare('INSERT INTO trajectory_runtime_events (session_id, seq, run_id, event_json, created_at) VALUES (?, ?, ?, ?, ?)');
  const blob = JSON.stringify({ blob: 'x'.repeat(4000) });
  db.transaction(() => {
    for (let i = 0; i < mb * 250; i++) pad.run('s2-beta', i, 'r', blob, Date.now());
  })();
  db.pragma('journal_mode = WAL');
  db.close();
  return { stateDir, dbFile };
}

/** The measuring child: list R times in one engine, print timings and peak RSS. */
async function measure(stateDir: string): Promise<void> {
  const { createEngine } = await import('../electron/engine/engine');
  const { createDirectClient } = await import('../electron/engine/rpc/direct');
  const engine = createEngine({ stateDir });
  const api = createDirectClient(engine);
  const ms: number[] = [];
  let sessions = 0;
  for (let i = 0; i < ROUNDS; i++) {
    const t0 = performance.now();
    sessions = (await api['sessions.list']({})).sessions.length;
    ms.push(performance.now() - t0);
  }
  await engine.dispose();
  const warm = ms.slice(1).sort((a, b) => a - b);
  const q = (p: number) => warm[Math.min(warm.length - 1, Math.floor(p * warm.length))] ?? 0;
  process.stdout.write(`${JSON.stringify({ sessions, cold: ms[0], p50: q(0.5), p95: q(0.95), rssMB: process.resourceUsage().maxRSS / 1024 })}\n`);
}

async function run(mb: number) {
  const { stateDir, dbFile } = build(mb);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-bench-live-data-'));
  const writer = spawn(process.execPath, [WRITER, dbFile, 's3-gamma', String(PACE_MS)], { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = readline.createInterface({ input: writer.stdout });
  let done: (s: string) => void = () => {};
  const finished = new Promise<string>((r) => (done = r));
  await new Promise<void>((ready) => lines.on('line', (l) => (l.startsWith('committed') ? ready() : l.startsWith('done') && done(l))));
  const m = spawnSync(process.execPath, ['--import', 'tsx', 'bench/openclaw-store-live.ts', 'measure', stateDir], { env: { ...process.env, CAIRN_DATA_DIR: dataDir }, encoding: 'utf8' });
  writer.stdin.write('stop\n');
  const totals = JSON.parse((await finished).slice(5)) as { written: number; busy: number };
  const r = JSON.parse(m.stdout.trim().split('\n').at(-1) ?? '{}') as { sessions: number; cold: number; p50: number; p95: number; rssMB: number };
  const copies = (fs.readdirSync(dataDir, { recursive: true }) as string[]).filter((p) => p.includes('openclaw-agent.sqlite')).length;
  const size = (fs.statSync(dbFile).size + (fs.existsSync(`${dbFile}-wal`) ? fs.statSync(`${dbFile}-wal`).size : 0)) / 1e6;
  fs.rmSync(stateDir, { recursive: true, force: true });
  fs.rmSync(dataDir, { recursive: true, force: true });
  return { mb: size, ...r, written: totals.written, busy: totals.busy, copies };
}

async function main() {
  if (process.argv[2] === 'measure') return measure(process.argv[3] as string);
  const rows = [];
  for (const mb of SIZES) rows.push(await run(mb));
  console.log(`| store (db + -wal) | sessions | first list | p50 | p95 | peak RSS | events written meanwhile | writer SQLITE_BUSY | copies made |`);
  console.log(`|---|---|---|---|---|---|---|---|---|`);
  for (const r of rows) {
    console.log(`| ${r.mb.toFixed(0)} MB | ${r.sessions} | ${r.cold.toFixed(1)} ms | ${r.p50.toFixed(1)} ms | ${r.p95.toFixed(1)} ms | ${r.rssMB.toFixed(0)} MB | ${r.written} | ${r.busy} | ${r.copies} |`);
  }
}

void main();
