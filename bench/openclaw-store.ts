/**
 * Reading OpenClaw 2026.9's SQLite session store (sessions/store/): how long listing the
 * sessions and loading one takes, on the OpenClaw-written fixture and on a large store built
 * from it (one session of N events, plus M MB of OpenClaw's other tables, as a store that
 * also holds OpenClaw's memory index and run traces), for each way the file is opened.
 * Prints a Markdown table. Run: node --import tsx bench/openclaw-store.ts
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { openForeignSqlite } from '../electron/engine/sessions/store/sqlite-readonly';
import { openclawSqliteStore } from '../electron/engine/sessions/store/openclaw-sqlite';
import { createStoreCaches, TRANSCRIPT_CACHE_BYTES } from '../electron/engine/sessions/store/cache';

const FIXTURE = path.resolve('tests/fixtures/openclaw-2026.9.6/state');
const EVENTS = Number(process.env.BENCH_EVENTS ?? 20000);
const PAD_MB = Number(process.env.BENCH_PAD_MB ?? 200);

function build(): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-bench-oc-'));
  fs.cpSync(FIXTURE, root, { recursive: true });
  const file = path.join(root, 'agents', 'main', 'agent', 'openclaw-agent.sqlite');
  const db = new Database(file);
  const tpl = db.prepare("SELECT event_json FROM transcript_events WHERE session_id = 's2-beta' AND event_json LIKE '{\"type\":\"message\"%' LIMIT 1").get() as { event_json: string };
  const ins = db.prepare('INSERT INTO transcript_events (session_id, seq, event_json, created_at) VALUES (?, ?, ?, ?)');
  const pad = db.prepare('INSERT INTO trajectory_runtime_events (session_id, seq, run_id, event_json, created_at) VALUES (?, ?, ?, ?, ?)');
  const blob = 'x'.repeat(4000);
  db.transaction(() => {
    const last = (db.prepare("SELECT max(seq) AS m FROM transcript_events WHERE session_id = 's2-beta'").get() as { m: number }).m;
    for (let i = 1; i <= EVENTS; i++) ins.run('s2-beta', last + i, tpl.event_json.replace(/"id":"[^"]+"/, `"id":"bench${i}"`), Date.now());
    for (let i = 0; i < PAD_MB * 250; i++) pad.run('s2-beta', i, 'r', JSON.stringify({ blob }), Date.now());
  })();
  db.close();
  return root;
}

function time<T>(fn: () => T, runs = 5): { ms: number; value: T } {
  let value = fn();
  const t0 = performance.now();
  for (let i = 0; i < runs; i++) value = fn();
  return { ms: (performance.now() - t0) / runs, value };
}

const rows: string[] = [];
for (const [label, stateDir] of [['fixture (6 sessions)', FIXTURE], [`large: s2-beta + ${EVENTS} events, +${PAD_MB} MB other tables`, build()]] as const) {
  const file = path.join(stateDir, 'agents', 'main', 'agent', 'openclaw-agent.sqlite');
  const size = fs.statSync(file).size;
  const snap = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-bench-snap-'));
  const open = time(() => {
    const h = openForeignSqlite(file, snap);
    h.db.close();
    return h.mode;
  });
  const store = openclawSqliteStore(stateDir, 'main', snap, createStoreCaches(TRANSCRIPT_CACHE_BYTES));
  const list = time(() => store.list().length);
  // A changed stamp forces a re-open and re-read, as after OpenClaw appended.
  const s = store.find('s2-beta');
  const load = time(() => {
    fs.utimesSync(file, new Date(), new Date());
    return store.load(s!).entries.length;
  }, 3);
  store.dispose();
  rows.push(`| ${label} | ${(size / 1e6).toFixed(1)} MB | ${open.value} | ${open.ms.toFixed(1)} | ${list.ms.toFixed(2)} (${list.value}) | ${load.ms.toFixed(0)} (${load.value} entries) |`);
  if (stateDir !== FIXTURE) fs.rmSync(stateDir, { recursive: true, force: true });
}
console.log(`| store | size | open mode | open ms | list ms (sessions) | re-read s2-beta after a change, ms |`);
console.log('|---|---|---|---|---|---|');
for (const r of rows) console.log(r);
