/**
 * Concurrent writers on one transcript and one sessions.json, as real processes: a plain
 * O_APPEND appender that knows nothing of Cairn (what OpenClaw does) against compactions,
 * a chat-style appender against a real `cairn compact`, and two processes updating
 * sessions.json at once. Nothing any of them wrote may be lost.
 */
import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { describe, expect, it } from 'vitest';
import { writeCompaction } from '../../electron/engine/compaction/write';
import { prefixFingerprint } from '../../electron/engine/transcript/prefix';
import { readTranscript } from '../../electron/engine/transcript/read';
import { readSessionIndex } from '../../electron/engine/transcript/sessions-index';
import type { CompactionEntry } from '../../electron/engine/transcript/types';
import { runCairn } from '../helpers/cli';
import { copyFixture, FIXTURE_SESSION_ID as SID } from '../helpers/fixtures';
import { makeSession } from '../helpers/sessions';
import { tmpDir } from '../helpers/tmp';

const ROOT = path.resolve(__dirname, '..', '..');

/**
 * A writer with no Cairn code at all: O_APPEND, one write per line, fsync, until stdin ends.
 * By default it keeps one fd open for its whole life (the strictest case: no rename can ever
 * be safe against it); with "reopen" it opens the file for each line, as appendFile does.
 */
const PLAIN_APPENDER = `
import fs from 'node:fs';
const reopen = process.argv[3] === 'reopen';
let fd = fs.openSync(process.argv[2], 'a');
let n = 0, stop = false;
process.stdin.on('end', () => { stop = true; }).resume();
const tick = () => {
  for (let k = 0; k < 20 && !stop; k++) {
    const line = JSON.stringify({ type: 'custom', id: 'ext' + n, parentId: null, timestamp: new Date().toISOString(), customType: 'ext', data: { n } }) + '\\n';
    if (reopen) { fs.closeSync(fd); fd = fs.openSync(process.argv[2], 'a'); }
    fs.writeSync(fd, line); fs.fsyncSync(fd);
    if (n++ === 0) process.stdout.write('ready\\n');
  }
  if (stop) { process.stdout.write('done ' + n + '\\n'); fs.closeSync(fd); } else setImmediate(tick);
};
tick();
`;

function startChild(args: string[], opts: { cwd?: string } = {}): { child: ChildProcessWithoutNullStreams; lines: AsyncIterator<string> } {
  const child = spawn(process.execPath, args, { cwd: opts.cwd ?? ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
  child.stderr.setEncoding('utf8').on('data', (s: string) => process.stderr.write(s));
  return { child, lines: readline.createInterface({ input: child.stdout })[Symbol.asyncIterator]() };
}

async function nextLine(lines: AsyncIterator<string>): Promise<string> {
  const r = await lines.next();
  if (r.done) throw new Error('the child ended before printing the expected line');
  return r.value;
}

function compactionEntry(i: number, parentId: string | null): CompactionEntry {
  return { type: 'compaction', id: `c${String(i).padStart(7, '0')}`, parentId, timestamp: new Date().toISOString(), summary: `summary ${i}`, firstKeptEntryId: 'none', tokensBefore: 1 } as CompactionEntry;
}

describe('concurrent writers on one transcript', () => {
  it('compactions beside a lock-free O_APPEND appender lose 0 lines over 20 rounds', async () => {
    const { file } = makeSession(400, { resultChars: 4000 }); // ~1.8 MB: a copy takes long enough to race
    const script = path.join(tmpDir(), 'appender.mjs');
    fs.writeFileSync(script, PLAIN_APPENDER);
    const { child, lines } = startChild([script, file]);
    expect(await nextLine(lines)).toBe('ready');
    for (let i = 0; i < 20; i++) {
      const t = readTranscript(file);
      await writeCompaction(file, compactionEntry(i, t.entries.at(-1)?.id ?? null), prefixFingerprint(file, t.bytes), { checkpoint: i % 2 === 0 });
      // Let the appender run between rounds, so every round overlaps its writes.
      await new Promise((resolve) => setImmediate(resolve));
    }
    child.stdin.end();
    const done = await nextLine(lines);
    const written = Number(done.split(' ')[1]);
    const after = readTranscript(file);
    const ext = new Set(after.entries.filter((e) => e.id.startsWith('ext')).map((e) => e.id));
    const lost = Array.from({ length: written }, (_, n) => `ext${n}`).filter((id) => !ext.has(id));
    expect(written).toBeGreaterThan(0);
    expect(lost).toEqual([]);
    expect(after.entries.filter((e) => e.type === 'compaction')).toHaveLength(20);
    expect(after.malformed).toEqual([]);
  }, 120_000);

  it('a real `cairn compact` beside a chat-style appender loses no line; sessions.json keeps both', async () => {
    const { stateDir, transcript } = copyFixture({ writable: true });
    const { child, lines } = startChild(['--import', 'tsx', path.join(ROOT, 'tests', 'helpers', 'chat-appender-child.ts'), transcript]);
    expect(await nextLine(lines)).toBe('ready');
    for (let round = 0; round < 3; round++) {
      const r = await runCairn(['compact', SID, '--all', '--json', '--state-dir', stateDir]);
      expect(r.stderr).toBe('');
      expect(JSON.parse(r.stdout)).toMatchObject({ compacted: true });
    }
    child.stdin.end();
    const ids = (await nextLine(lines)).slice('done '.length).split(',');
    const after = readTranscript(transcript);
    const onDisk = new Set(after.entries.map((e) => e.id));
    expect(ids.filter((id) => !onDisk.has(id))).toEqual([]);
    expect(after.entries.filter((e) => e.type === 'compaction').length).toBe(1 + 3); // the fixture's own + 3
    const entry = Object.values(readSessionIndex(path.join(path.dirname(transcript), 'sessions.json'))).find((e) => e.sessionId === SID);
    expect(entry?.compactionCount).toBeGreaterThanOrEqual(3);
  }, 180_000);

  it('two processes updating sessions.json at once keep every key', async () => {
    const file = path.join(tmpDir(), 'sessions.json');
    const script = path.join(ROOT, 'tests', 'helpers', 'sessions-index-writer-child.ts');
    const run = (tag: string) => {
      const { child, lines } = startChild(['--import', 'tsx', script, file, tag, '150']);
      return { child, done: nextLine(lines) };
    };
    const a = run('a');
    const b = run('b');
    expect(await a.done).toBe('done');
    expect(await b.done).toBe('done');
    const keys = Object.keys(readSessionIndex(file));
    const want = ['a', 'b'].flatMap((t) => Array.from({ length: 150 }, (_, i) => `${t}-${i}`));
    expect(want.filter((k) => !keys.includes(k))).toEqual([]);
    expect(fs.readdirSync(path.dirname(file)).filter((n) => n.endsWith('.tmp') || n.endsWith('lock'))).toEqual([]);
  }, 120_000);

  it("leaves OpenClaw's own session lock file alone, and a stale one does not block the write", async () => {
    const { file } = makeSession(3);
    // OpenClaw's session write lock: a file <session>.jsonl.lock with its pid — here the pid
    // of a process that has exited (a live holder blocks: transcript-openclaw-lock.test.ts).
    const openclawLock = `${file}.lock`;
    const gone = spawnSync(process.execPath, ['-e', '']).pid;
    const payload = JSON.stringify({ pid: gone, createdAt: new Date().toISOString() });
    fs.writeFileSync(openclawLock, payload);
    const t = readTranscript(file);
    await writeCompaction(file, compactionEntry(0, t.entries.at(-1)?.id ?? null), prefixFingerprint(file, t.bytes));
    expect(readTranscript(file).entries.at(-1)?.type).toBe('compaction');
    expect(fs.readFileSync(openclawLock, 'utf8')).toBe(payload);
  }, 30_000);
});
