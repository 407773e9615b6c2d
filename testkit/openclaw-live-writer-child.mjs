/**
 * Plays a running OpenClaw writing its SQLite store in WAL mode, in its own process: one
 * connection kept open (so its -wal and -shm stay), appending user message events to a
 * session in a loop, each insert its own transaction, with busy_timeout 0 — so any lock a
 * reader held against it would surface at once as SQLITE_BUSY, which it counts. Auto-
 * checkpoints run as in OpenClaw (every 1000 pages), here every 64 pages so they happen often.
 * argv: <db> <sessionId> [ms between two steps of 2 events, default 5]. Prints `committed <n>` after every 20 commits, stops at the line
 * "stop" on stdin and prints `done {"written":n,"busy":k}` before closing its connection.
 */
import Database from 'better-sqlite3';

const [file, sessionId, pace] = process.argv.slice(2);
const PACE_MS = Number(pace ?? 5);
const db = new Database(file);
db.pragma('journal_mode = WAL');
db.pragma('busy_timeout = 0');
db.pragma('synchronous = OFF'); // no fsync: this disk is shared and slow, and durability is not under test
db.pragma('wal_autocheckpoint = 64');
const last = db.prepare('SELECT max(seq) AS seq FROM transcript_events WHERE session_id = ?').get(sessionId);
let seq = last?.seq ?? -1;
const insert = db.prepare('INSERT INTO transcript_events (session_id, seq, event_json, created_at) VALUES (?, ?, ?, ?)');
let written = 0;
let busy = 0;
let stopping = false;
process.stdin.setEncoding('utf8');
process.stdin.on('data', (s) => {
  if (s.includes('stop')) stopping = true;
});
function step() {
  if (stopping) {
    db.close();
    // Exit once the line has drained: a piped stdout may still hold it.
    process.stdout.write(`done ${JSON.stringify({ written, busy })}\n`, () => process.exit(0));
    return;
  }
  for (let i = 0; i < 2; i++) {
    const event = { type: 'message', id: `live-${seq + 1}`, parentId: null, timestamp: new Date().toISOString(), message: { role: 'user', content: [{ type: 'text', text: `live ${seq + 1} ${'x'.repeat(600)}` }], timestamp: Date.now() } };
    try {
      insert.run(sessionId, seq + 1, JSON.stringify(event), Date.now());
      seq++;
      written++;
      if (written % 20 === 0) process.stdout.write(`committed ${written}\n`);
    } catch (err) {
      if (err.code && String(err.code).startsWith('SQLITE_BUSY')) busy++;
      else throw err;
    }
  }
  setTimeout(step, PACE_MS); // a steady pace, as a live agent writes, not a flood
}
step();
