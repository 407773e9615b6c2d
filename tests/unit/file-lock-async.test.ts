/**
 * Cairn's cross-process file lock never blocks the engine's thread (util/file-lock.ts): while
 * another process holds the lock of sessions.json, a locked engine call waits and the engine
 * keeps answering other calls; the waiting call finishes once the lock is released. A lock
 * whose holder died is taken over at once (its pid is in the lock), not after the 10 s stale
 * time; one whose holder lives is not.
 */
import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { createEngine } from '../../electron/engine/engine';
import { createDirectClient } from '../../electron/engine/rpc/direct';
import { readSessionIndex, sessionEntries } from '../../electron/engine/transcript/sessions-index';
import { FileLockedError, lockPathOf, withFileLock } from '../../electron/engine/util/file-lock';
import { childLines } from '../helpers/child-lines';
import { tmpDir } from '../helpers/tmp';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const HOLDER = path.join(ROOT, 'tests', 'helpers', 'file-lock-holder-child.ts');

const children: ChildProcessWithoutNullStreams[] = [];
afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
});

/** A real second process holding the lock of `file`; resolves once it holds it. */
async function holdLock(file: string): Promise<{ child: ChildProcessWithoutNullStreams; next: () => Promise<string> }> {
  const child = spawn(process.execPath, ['--import', 'tsx', HOLDER, file], { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
  children.push(child);
  child.stderr.setEncoding('utf8').on('data', (s: string) => process.stderr.write(s));
  const next = childLines(child, 'the lock holder');
  expect(await next()).toBe('held');
  return { child, next };
}

describe('cross-process file lock', () => {
  it('a held lock leaves the engine answering other calls; the locked call finishes after the release', async () => {
    const dir = tmpDir();
    const engine = createEngine({ stateDir: dir, deps: { createEmbedder: async () => null, createLlm: () => undefined, env: {} } });
    const api = createDirectClient(engine);
    try {
      const index = engine.ctx.paths().sessionsIndex;
      fs.mkdirSync(path.dirname(index), { recursive: true });
      const holder = await holdLock(index);
      const order: string[] = [];
      // chat.newSession writes sessions.json under its lock: it must wait, without blocking.
      const created = api['chat.newSession']({}).then((r) => {
        order.push('newSession');
        return r;
      });
      const status = await api['app.status']({ checks: false });
      order.push('status');
      expect(status.stateDir).toBe(dir);
      // Answered while the other process still holds the lock (it has not been told to let go).
      expect(order).toEqual(['status']);
      expect(holder.child.exitCode).toBeNull();
      expect(fs.existsSync(lockPathOf(index))).toBe(true);
      holder.child.stdin.end();
      expect(await holder.next()).toBe('released');
      const ref = await created;
      expect(order).toEqual(['status', 'newSession']);
      expect(sessionEntries(readSessionIndex(index)).map((e) => e.entry.sessionId)).toEqual([ref.sessionId]);
    } finally {
      await engine.dispose();
    }
  }, 60_000);

  it('takes over at once a lock whose holder was killed, and not one whose holder lives', async () => {
    const file = path.join(tmpDir(), 'sessions.json');
    const live = await holdLock(file);
    // No waiting allowed: a live holder means FileLockedError naming the file and the lock.
    await expect(withFileLock(file, () => 'mine', { waitMs: 0 })).rejects.toThrow(FileLockedError);
    await expect(withFileLock(file, () => 'mine', { waitMs: 0 })).rejects.toThrow(`${file} is being written by another Cairn process`);
    const gone = new Promise((resolve) => live.child.once('exit', resolve));
    live.child.kill('SIGKILL');
    await gone;
    expect(fs.existsSync(lockPathOf(file))).toBe(true); // left behind, fresh (not stale by its mtime)
    // Still no waiting allowed: the dead holder's lock is taken over on the first attempt.
    expect(await withFileLock(file, () => 'mine', { waitMs: 0 })).toBe('mine');
    expect(fs.readdirSync(path.dirname(file))).toEqual([]);
  }, 60_000);

  it('judges a planted lock by its owner: a dead pid of this host is taken over, another host or no owner is not', async () => {
    const dir = tmpDir();
    const gone = spawnSync(process.execPath, ['-e', '']).pid;
    const plant = (name: string, owner: string | null): string => {
      const file = path.join(dir, name);
      fs.mkdirSync(lockPathOf(file));
      if (owner !== null) fs.writeFileSync(path.join(lockPathOf(file), 'owner.json'), owner);
      return file;
    };
    const dead = plant('dead.json', JSON.stringify({ pid: gone, starttime: null, host: os.hostname() }));
    expect(await withFileLock(dead, () => 'mine', { waitMs: 0 })).toBe('mine');
    // A pid on another host cannot be checked from here, and a lock without its owner yet is
    // being taken right now: both wait for the stale time.
    for (const file of [plant('remote.json', JSON.stringify({ pid: gone, starttime: null, host: `not-${os.hostname()}` })), plant('fresh.json', null), plant('torn.json', '{"pid":')]) {
      await expect(withFileLock(file, () => 'mine', { waitMs: 0 }), file).rejects.toThrow(FileLockedError);
      expect(fs.existsSync(lockPathOf(file))).toBe(true);
    }
  });

  it('a failed operation releases the lock and its error reaches the caller', async () => {
    const file = path.join(tmpDir(), 'sessions.json');
    await expect(withFileLock(file, () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(fs.existsSync(lockPathOf(file))).toBe(false);
    // Two operations of one process take turns.
    const seen: string[] = [];
    await Promise.all(['a', 'b'].map((tag) => withFileLock(file, async () => {
      seen.push(`${tag}+`);
      await new Promise((resolve) => setImmediate(resolve));
      seen.push(`${tag}-`);
    })));
    expect(seen).toEqual(['a+', 'a-', 'b+', 'b-']);
  });
});
