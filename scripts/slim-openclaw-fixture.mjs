#!/usr/bin/env node
/**
 * Make the small copy of the OpenClaw 2026.9.6 state dir that tests use
 * (tests/fixtures/openclaw-2026.9.6/state) from the full one in ../shared/fixtures.
 *
 * Every session row and transcript event stays exactly as OpenClaw wrote it; only
 * `trajectory_runtime_events` (4.8 MB of OpenClaw's run traces, which Cairn never reads) is
 * emptied, then the file is vacuumed, so the copy is ~1 MB instead of 6 MB. Run once:
 *   node scripts/slim-openclaw-fixture.mjs [<full fixture dir>]
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';

const src = path.resolve(process.argv[2] ?? '../shared/fixtures/openclaw-2026.9.6');
const dest = path.resolve('tests/fixtures/openclaw-2026.9.6');
const files = ['state/openclaw.json', 'state/workspace/MEMORY.md', 'state/workspace/memory/2026-12-01.md', 'openclaw-sessions.json', 'README.md'];
for (const rel of files) {
  fs.mkdirSync(path.dirname(path.join(dest, rel)), { recursive: true });
  fs.copyFileSync(path.join(src, rel), path.join(dest, rel));
  fs.chmodSync(path.join(dest, rel), 0o644);
}
const db = 'state/agents/main/agent/openclaw-agent.sqlite';
fs.mkdirSync(path.dirname(path.join(dest, db)), { recursive: true });
fs.copyFileSync(path.join(src, db), path.join(dest, db));
fs.chmodSync(path.join(dest, db), 0o644);
const h = new Database(path.join(dest, db));
h.exec('DELETE FROM trajectory_runtime_events; VACUUM;');
h.close();
console.log(`${path.join(dest, db)}: ${fs.statSync(path.join(dest, db)).size} bytes`);
