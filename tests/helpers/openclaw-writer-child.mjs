/**
 * Plays OpenClaw writing its SQLite session store, in its own process: appends one user
 * message event to a session (`transcript_events`, next seq), the way OpenClaw does, with no
 * lock or file of Cairn's. argv: <db> <sessionId> <text> [wal]. With "wal" the database is
 * switched to WAL and the connection stays open (the -wal file kept, no checkpoint) until
 * stdin closes, as while OpenClaw runs. Prints "written" once the event is committed.
 */
import Database from 'better-sqlite3';

const [db, sessionId, text, mode] = process.argv.slice(2);
const h = new Database(db);
if (mode === 'wal') {
  h.pragma('journal_mode = WAL');
  h.pragma('wal_autocheckpoint = 0');
}
const last = h.prepare('SELECT seq, event_json FROM transcript_events WHERE session_id = ? ORDER BY seq DESC LIMIT 1').get(sessionId);
const parentId = last?.event_json ? JSON.parse(last.event_json).id ?? null : null;
const event = {
  type: 'message',
  id: `live${String(Date.now()).slice(-8)}`,
  parentId,
  timestamp: new Date().toISOString(),
  message: { role: 'user', content: [{ type: 'text', text }], timestamp: Date.now() },
};
h.prepare('INSERT INTO transcript_events (session_id, seq, event_json, created_at) VALUES (?, ?, ?, ?)').run(sessionId, (last?.seq ?? -1) + 1, JSON.stringify(event), Date.now());
process.stdout.write('written\n');
if (mode === 'wal') {
  process.stdin.resume();
  process.stdin.on('end', () => {
    h.close();
    process.exit(0);
  });
} else h.close();
