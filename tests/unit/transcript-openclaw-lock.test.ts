/**
 * Cairn honours OpenClaw's session write lock `<session>.jsonl.lock`: a real second process
 * takes the lock the way OpenClaw does (open 'wx', `{pid, createdAt, starttime}`), and Cairn's
 * compaction and chat appends stay off the transcript while that process lives — the file
 * byte-identical, a clear error naming the session and the lock — wait for it to go when they
 * can, and are not stopped by a stale lock (dead pid, too old). Cairn never removes the lock.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CompactionSchema } from '../../electron/engine/config/schema';
import { compact } from '../../electron/engine/compaction/compact';
import { listCheckpoints, writeCompaction } from '../../electron/engine/compaction/write';
import { createEngine } from '../../electron/engine/engine';
import { createDirectClient } from '../../electron/engine/rpc/direct';
import { readTranscript } from '../../electron/engine/transcript/read';
import { prefixFingerprint } from '../../electron/engine/transcript/prefix';
import type { CompactionEntry } from '../../electron/engine/transcript/types';
import { OpenClawLockedError } from '../../electron/engine/util/openclaw-lock';
import { childLines } from '../helpers/child-lines';
import { copyFixture, FIXTURE_SESSION_ID } from '../helpers/fixtures';
import { makeSession } from '../helpers/sessions';
import { SummarizerLLM } from '../helpers/test-llms';
import { tmpDir } from '../helpers/tmp';

/**
 * OpenClaw's acquireSessionWriteLock, reduced to what Cairn can see: the lock file made with
 * 'wx' and its payload. argv: lock path, optional createdAt. Prints "locked"; on the stdin line
 * "release" it removes the lock (as OpenClaw's release does) and prints "released"; when stdin
 * ends it exits leaving the lock behind, like an OpenClaw that was killed mid-turn.
 */
const HOLDER = `
import fs from 'node:fs';
import readline from 'node:readline';
const [lockPath, createdAt] = process.argv.slice(2);
const stat = fs.readFileSync('/proc/self/stat', 'utf8');
const starttime = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]);
const fd = fs.openSync(lockPath, 'wx');
fs.writeSync(fd, JSON.stringify({ pid: process.pid, createdAt: createdAt || new Date().toISOString(), starttime }, null, 2));
process.stdout.write('locked\\n');
const rl = readline.createInterface({ input: process.stdin });
rl.on('line', (l) => { if (l === 'release') { fs.closeSync(fd); fs.rmSync(lockPath); process.stdout.write('released\\n'); } });
rl.on('close', () => { process.exitCode = 0; });
`;

interface Holder {
  child: ChildProcessWithoutNullStreams;
  pid: number;
  next(): Promise<string>;
  /** End stdin and wait until the process is gone (reaped), leaving its lock file. */
  die(): Promise<void>;
}

async function holdLock(lockPath: string, createdAt?: string): Promise<Holder> {
  const script = path.join(tmpDir('cairn-holder-'), 'openclaw-holder.mjs');
  fs.writeFileSync(script, HOLDER);
  const child = spawn(process.execPath, [script, lockPath, ...(createdAt ? [createdAt] : [])], { stdio: ['pipe', 'pipe', 'pipe'] });
  child.stderr.setEncoding('utf8').on('data', (s: string) => process.stderr.write(s));
  const next = childLines(child, 'the lock holder');
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  expect(await next()).toBe('locked');
  return { child, pid: child.pid as number, next, die: async () => { child.stdin.end(); await exited; } };
}

const settings = () => CompactionSchema.parse({ keepRecentTokens: 600 });

function entry(parentId: string | null): CompactionEntry {
  return { type: 'compaction', id: 'c0ffee00', parentId, timestamp: new Date().toISOString(), summary: 'summary', firstKeptEntryId: 'none', tokensBefore: 1 } as CompactionEntry;
}

describe("OpenClaw's session write lock", () => {
  it('a live lock blocks a compaction write with a clear error and leaves the transcript as it was; once the holder is dead it does not', async () => {
    const { file } = makeSession(4);
    const lockPath = `${file}.lock`;
    const holder = await holdLock(lockPath);
    const lockBytes = fs.readFileSync(lockPath);
    const before = fs.readFileSync(file);
    const t = readTranscript(file);
    const expectPrefix = prefixFingerprint(file, t.bytes);
    let err: unknown;
    try {
      await writeCompaction(file, entry(t.entries.at(-1)?.id ?? null), expectPrefix);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(OpenClawLockedError);
    const message = (err as Error).message;
    expect(message).toContain(file);
    expect(message).toContain(`OpenClaw is writing this session (lock ${lockPath} held by pid ${holder.pid} since `);
    expect(message).toContain('try again when it is idle');
    expect(fs.readFileSync(file).equals(before)).toBe(true);
    expect(listCheckpoints(file)).toEqual([]);

    // The holder dies without releasing (killed mid-turn): its lock is stale by OpenClaw's rule.
    await holder.die();
    await writeCompaction(file, entry(t.entries.at(-1)?.id ?? null), expectPrefix);
    expect(readTranscript(file).entries.at(-1)?.type).toBe('compaction');
    expect(fs.readFileSync(lockPath).equals(lockBytes)).toBe(true); // never removed nor touched by Cairn
  }, 30_000);

  it('compact() waits for OpenClaw to release its lock, says so in its progress, then writes', async () => {
    const { file } = makeSession(10, { resultChars: 800 });
    const before = fs.readFileSync(file, 'utf8');
    const holder = await holdLock(`${file}.lock`);
    const labels: string[] = [];
    let sawWait!: () => void;
    const waiting = new Promise<void>((resolve) => (sawWait = resolve));
    const run = compact({
      file, settings: settings(), contextWindowTokens: 100_000, llm: new SummarizerLLM(), trigger: 'manual',
      onProgress: (p) => {
        labels.push(p.label);
        if (p.label.startsWith('waiting for OpenClaw')) sawWait();
      },
    });
    // Without the wait compact() would finish first; with it, it is waiting on the lock now.
    const first = await Promise.race([waiting.then(() => 'waiting'), run.then(() => 'finished')]);
    expect(first).toBe('waiting');
    expect(fs.readFileSync(file, 'utf8')).toBe(before);
    holder.child.stdin.write('release\n');
    expect(await holder.next()).toBe('released');
    const r = await run;
    expect(r.compacted).toBe(true);
    expect(labels).toContain(`waiting for OpenClaw to finish writing this session (pid ${holder.pid})`);
    expect(fs.readFileSync(file, 'utf8').startsWith(before)).toBe(true);
    expect(readTranscript(file).entries.at(-1)?.type).toBe('compaction');
    await holder.die();
  }, 30_000);

  it('compact() gives up after its bounded wait with the error, and writes nothing', async () => {
    const { file } = makeSession(10, { resultChars: 800 });
    const before = fs.readFileSync(file);
    const holder = await holdLock(`${file}.lock`);
    await expect(compact({ file, settings: settings(), contextWindowTokens: 100_000, llm: new SummarizerLLM(), openclawWaitMs: 300 }))
      .rejects.toThrow(new RegExp(`OpenClaw is writing this session \\(lock .*held by pid ${holder.pid} since .*still held after waiting`));
    expect(fs.readFileSync(file).equals(before)).toBe(true);
    expect(listCheckpoints(file)).toEqual([]);
    expect(fs.existsSync(`${file}.lock`)).toBe(true);
    await holder.die();
  }, 30_000);

  it('a chat append is refused while the lock is live, and the file keeps its bytes', async () => {
    const { file, session } = makeSession(2);
    const before = fs.readFileSync(file);
    const holder = await holdLock(`${file}.lock`);
    expect(() => session.appendMessage({ role: 'user', content: 'hello', timestamp: 0 })).toThrow(OpenClawLockedError);
    expect(fs.readFileSync(file).equals(before)).toBe(true);
    await holder.die();
    session.appendMessage({ role: 'user', content: 'hello', timestamp: 0 });
    expect(readTranscript(file).entries.at(-1)?.type).toBe('message');
  }, 30_000);

  it("finds the lock where OpenClaw puts it when the sessions dir is reached through a symlink", async () => {
    const { file } = makeSession(2);
    const link = path.join(tmpDir(), 'sessions-link');
    fs.symlinkSync(path.dirname(file), link);
    const viaLink = path.join(link, path.basename(file));
    const holder = await holdLock(`${file}.lock`); // OpenClaw resolves the dir's real path
    const t = readTranscript(viaLink);
    await expect(writeCompaction(viaLink, entry(t.entries.at(-1)?.id ?? null), prefixFingerprint(viaLink, t.bytes))).rejects.toThrow(OpenClawLockedError);
    await holder.die();
  }, 30_000);

  it('a lock older than 30 min does not block even with a live holder; a fresh one without its payload yet does', async () => {
    const { file } = makeSession(2);
    const old = new Date(Date.now() - 31 * 60 * 1000).toISOString();
    const holder = await holdLock(`${file}.lock`, old);
    const t = readTranscript(file);
    await writeCompaction(file, entry(t.entries.at(-1)?.id ?? null), prefixFingerprint(file, t.bytes), { checkpoint: false });
    expect(readTranscript(file).entries.at(-1)?.type).toBe('compaction');
    await holder.die();

    // OpenClaw between open('wx') and writing its payload: an empty lock file, fresh.
    const { file: other, session } = makeSession(2);
    fs.writeFileSync(`${other}.lock`, '');
    expect(() => session.appendMessage({ role: 'user', content: 'x', timestamp: 0 })).toThrow(/held by an OpenClaw process that has not written its pid yet/);
    // Left empty for longer than OpenClaw's 30 s grace, it is an orphan.
    const past = new Date(Date.now() - 60_000);
    fs.utimesSync(`${other}.lock`, past, past);
    session.appendMessage({ role: 'user', content: 'x', timestamp: 0 });
    expect(fs.readFileSync(`${other}.lock`, 'utf8')).toBe('');
  }, 30_000);

  it('compact.run through the engine waits on the lock and reports it on compact.progress', async () => {
    const { stateDir, transcript } = copyFixture({ writable: true });
    const holder = await holdLock(`${transcript}.lock`);
    const engine = createEngine({ stateDir, deps: { createLlm: () => new SummarizerLLM() } });
    try {
      const api = createDirectClient(engine);
      api.on('compact.progress', (p) => {
        if (p.label.startsWith('waiting for OpenClaw')) holder.child.stdin.write('release\n');
      });
      const r = await api['compact.run']({ sessionId: FIXTURE_SESSION_ID, all: true }, { opId: 'op-1' });
      expect(r.compacted).toBe(true);
      expect(await holder.next()).toBe('released');
    } finally {
      await engine.dispose();
      await holder.die();
    }
  }, 30_000);
});
