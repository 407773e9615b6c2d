/**
 * The child of the crash test: appends entries and compacts the transcript given on the
 * command line, with every choice drawn from a seeded PRNG (argv[3]), until it kills itself
 * (SIGKILL) at the fault point argv[4] names — so each kill lands at a known place, whatever
 * the machine's load. It prints a phase marker before each write and a confirmation after
 * it: "a" then "A <ids>" around a durable append, "w" (a compaction's write phase began:
 * lock, checkpoint, append) then "C <id>" once the compaction is on disk, and "x <point>"
 * right before it kills itself (stdout to a pipe is synchronous on Linux).
 *
 * Fault points, `<point>:<n>` = at the n-th time the point is reached:
 *   - `append-torn`     a plain append's line half written (a torn last line)
 *   - `checkpoint-copy` a compaction's checkpoint copied to its temp file, not yet renamed
 *   - `checkpoint-done` the checkpoint in place, the compaction entry not yet appended
 *   - `entry-torn`      the compaction entry half written
 *   - `entry-unsynced`  the compaction entry written, not yet fsynced
 * The points are reached through the `fs` calls the engine makes (this helper wraps them in
 * its own process only; the engine code is unchanged).
 */
import fs from 'node:fs';
import path from 'node:path';
import { CompactionSchema } from '../../electron/engine/config/schema';
import { compact } from '../../electron/engine/compaction/compact';
import { openSessionFile } from '../../electron/engine/transcript/session-file';
import type { FaultPoint } from './crash-faults';
import { rng } from './seed-writer';

const file = process.argv[2] as string;
const random = rng(Number(process.argv[3] ?? 1));
const [point, nth] = (process.argv[4] ?? '').split(':') as [FaultPoint, string];
let left = Number(nth) || 1;
const settings = CompactionSchema.parse({ keepRecentTokens: 300 });
let phase: 'a' | 'w' | '' = '';

/** At the fault point (its n-th time): say so and die at once, as a power cut or `kill -9` would. */
function reached(p: FaultPoint): void {
  if (p !== point || --left > 0) return;
  process.stdout.write(`x ${p}\n`);
  process.kill(process.pid, 'SIGKILL');
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10_000); // never returns: the signal lands first
}

// Descriptors open on the transcript itself (appends go through fs.openSync(file, 'a+')).
const transcriptFds = new Set<number>();
const { openSync, closeSync, writeSync, fsyncSync, copyFileSync, renameSync } = fs;
fs.openSync = ((p: fs.PathLike, ...rest: unknown[]) => {
  const fd = (openSync as (...a: unknown[]) => number)(p, ...rest);
  if (path.resolve(String(p)) === path.resolve(file)) transcriptFds.add(fd);
  return fd;
}) as typeof fs.openSync;
fs.closeSync = ((fd: number) => {
  transcriptFds.delete(fd);
  closeSync(fd);
}) as typeof fs.closeSync;
fs.writeSync = ((fd: number, buf: NodeJS.ArrayBufferView, ...rest: unknown[]) => {
  const torn = phase === 'a' ? 'append-torn' : 'entry-torn';
  if (transcriptFds.has(fd) && phase !== '' && point === torn) {
    if (left > 1) left--;
    else {
      // Half the line reaches the file, then the process dies.
      const [offset = 0, length = buf.byteLength] = rest as [number?, number?];
      writeSync(fd, buf, offset, Math.max(1, Math.floor(length / 2)));
      reached(torn);
    }
  }
  return (writeSync as (...a: unknown[]) => number)(fd, buf, ...rest);
}) as typeof fs.writeSync;
fs.fsyncSync = ((fd: number) => {
  if (transcriptFds.has(fd) && phase === 'w') reached('entry-unsynced');
  fsyncSync(fd);
}) as typeof fs.fsyncSync;
fs.copyFileSync = ((src: fs.PathLike, dest: fs.PathLike, mode?: number) => {
  copyFileSync(src, dest, mode);
  if (phase === 'w' && String(dest).endsWith('.tmp')) reached('checkpoint-copy');
}) as typeof fs.copyFileSync;
fs.renameSync = ((from: fs.PathLike, to: fs.PathLike) => {
  renameSync(from, to);
  if (phase === 'w' && String(to).includes('.checkpoint.')) reached('checkpoint-done');
}) as typeof fs.renameSync;

const session = openSessionFile(file);
let n = 0;
process.stdout.write('ready\n');

async function main(): Promise<void> {
  for (;;) {
    if (random() < 0.6) {
      const count = 1 + Math.floor(random() * 4);
      const entries = Array.from({ length: count }, () => ({
        type: 'message',
        message: n++ % 2
          ? { role: 'assistant', content: [{ type: 'text', text: `reply ${n} about src/file${n}.ts ${'r'.repeat(Math.floor(random() * 3000))}` }] }
          : { role: 'user', content: `ask ${n}: check host-${n}.internal:${1000 + n} ${'u'.repeat(Math.floor(random() * 2000))}` },
      }));
      process.stdout.write('a\n');
      phase = 'a';
      const made = session.append(...entries);
      phase = '';
      process.stdout.write(`A ${made.map((e) => e.id).join(',')}\n`);
    } else {
      const r = await compact({
        file, settings, contextWindowTokens: 50_000,
        onProgress: (p) => {
          if (p.phase !== 'write') return;
          process.stdout.write('w\n');
          phase = 'w';
        },
      });
      phase = '';
      if (r.compacted) process.stdout.write(`C ${r.entry.id}\n`);
      session.reload();
    }
    await new Promise((resolve) => setImmediate(resolve));
  }
}

void main();
