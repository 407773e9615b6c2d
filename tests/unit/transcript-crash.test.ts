/**
 * Crash safety: a child process appends and compacts one transcript while the parent SIGKILLs
 * it, 30 times — two kills in three at a seeded delay after start, every third a few ms after
 * the child says a compaction's write has begun (all choices seeded). After every kill the
 * transcript must parse, its context must rebuild, every line written before must still be
 * there byte-for-byte (the old file is a prefix of the new one), and every append or
 * compaction the child reported as done must be on disk. The child's phase markers tell where each kill landed; some must land inside a
 * compaction's write, or the test would not be testing what its title says.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { createTranscriptFile } from '../../electron/engine/transcript/append';
import { readTranscript } from '../../electron/engine/transcript/read';
import { buildContext } from '../../electron/engine/transcript/context';
import { compact } from '../../electron/engine/compaction/compact';
import { CompactionSchema } from '../../electron/engine/config/schema';
import { lockPathOf } from '../../electron/engine/util/file-lock';
import { rng } from '../helpers/seed-writer';
import { tmpDir } from '../helpers/tmp';

const here = path.dirname(fileURLToPath(import.meta.url));
const KILLS = 30;
/** The mtime an orphaned lock is aged to: long past proper-lockfile's staleness. */
const AGED = new Date('2001-01-01T00:00:00Z');

/** Where a kill landed: inside an append, inside a compaction's locked write, or elsewhere (planning, waiting, between writes). */
type Landing = 'append' | 'compaction-write' | 'between';

/**
 * Run the child (PRNG seed `seed`) and SIGKILL it `delayMs` after it is ready, or — with
 * `{ afterWriteMs }` — that long after it reports that a compaction's write phase began.
 */
function runAndKill(child: string, file: string, seed: number, delayMs: number | { afterWriteMs: number }): Promise<{ confirmed: string[]; landed: Landing }> {
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, [child, file, String(seed)], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    let armed = false;
    p.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (armed || !out.includes('ready\n')) return;
      if (typeof delayMs === 'object') {
        // A kill the instant "w" arrives lands before the lock is even taken; a few ms later it
        // lands in the locked section (checkpoint copy, append + fsync) most of the time.
        if (/^w$/m.test(out)) {
          armed = true;
          setTimeout(() => p.kill('SIGKILL'), delayMs.afterWriteMs);
        }
      } else {
        armed = true;
        setTimeout(() => p.kill('SIGKILL'), delayMs);
      }
    });
    p.stderr.on('data', (d: Buffer) => (err += d.toString()));
    p.on('error', reject);
    p.on('exit', (code, signal) => {
      if (signal !== 'SIGKILL') return reject(new Error(`child exited on its own (code ${code}): ${err}`));
      // Only whole lines were reported before the kill.
      const lines = out.split('\n').slice(0, -1);
      const confirmed = lines.flatMap((l) => (l.startsWith('A ') ? l.slice(2).split(',') : l.startsWith('C ') ? [l.slice(2)] : []));
      const last = lines.at(-1);
      // The transcript's lock directory outlives a writer killed while holding it, which only
      // writeCompaction takes (appends do not): "w" last and the lock left = killed inside the
      // locked write (stale temps, checkpoint copy, append + fsync), not while waiting for it.
      // (A lock still aged by us is an older orphan nobody has taken over yet, not this child's.)
      const lock = fs.statSync(lockPathOf(file), { throwIfNoEntry: false });
      const held = lock !== undefined && lock.mtimeMs > AGED.getTime();
      // Age the orphaned lock past proper-lockfile's 10 s staleness, so the next writer takes it
      // over at once, as it would 10 s later, instead of every run waiting for it. (Without
      // this, most kills landed in a child blocked on the lock, not in any write.)
      if (held) fs.utimesSync(lockPathOf(file), AGED, AGED);
      resolve({ confirmed, landed: last === 'w' && held ? 'compaction-write' : last === 'a' ? 'append' : 'between' });
    });
  });
}

describe('crash safety (SIGKILL during appends and compactions)', () => {
  it(`keeps every transcript parseable with no line lost across ${KILLS} kills`, async () => {
    const dir = tmpDir('cairn-crash-');
    const child = path.join(dir, 'crash-child.mjs');
    await build({ entryPoints: [path.join(here, '..', 'helpers', 'crash-child.ts')], bundle: true, platform: 'node', format: 'esm', outfile: child, logLevel: 'silent',
      // CommonJS dependencies (proper-lockfile) require Node built-ins; give the ESM bundle a require.
      banner: { js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);" } });
    const file = path.join(dir, 'crash.jsonl');
    createTranscriptFile(file, { id: 'crash', timestamp: '2025-03-01T00:00:00.000Z', cwd: dir });
    const everConfirmed = new Set<string>();
    const landings: Record<Landing, number> = { append: 0, 'compaction-write': 0, between: 0 };
    const random = rng(0x5eed);
    let compactionsSeen = 0;
    for (let i = 0; i < KILLS; i++) {
      const before = fs.readFileSync(file);
      const delay = i % 3 === 2 ? { afterWriteMs: 1 + Math.floor(random() * 4) } : 20 + Math.floor(random() * 200);
      const { confirmed, landed } = await runAndKill(child, file, 1000 + i, delay);
      landings[landed]++;
      for (const id of confirmed) everConfirmed.add(id);
      const after = fs.readFileSync(file);
      expect(after.subarray(0, before.length).equals(before)).toBe(true);
      const t = readTranscript(file);
      expect(t.header?.id).toBe('crash');
      for (const id of everConfirmed) expect(t.byId.has(id)).toBe(true);
      // a torn line can only be one a killed writer never finished: at most one per kill
      expect(t.malformed.length).toBeLessThanOrEqual(i + 1);
      const ctx = buildContext(t);
      const newest = [...t.entries].reverse().find((e) => e.type === 'compaction');
      if (newest) expect(ctx.compaction?.id).toBe(newest.id);
      compactionsSeen = t.entries.filter((e) => e.type === 'compaction').length;
    }
    expect(everConfirmed.size).toBeGreaterThan(KILLS);
    expect(compactionsSeen).toBeGreaterThan(0);
    // Some kills provably landed after a compaction's write began and before it was confirmed.
    expect(landings['compaction-write'], JSON.stringify(landings)).toBeGreaterThan(0);
    // The next writer cleans up temp files that dead writers left behind.
    await compact({ file, settings: CompactionSchema.parse({ keepRecentTokens: 300 }), contextWindowTokens: 50_000 });
    expect(fs.readdirSync(dir).filter((n) => n.endsWith('.tmp'))).toEqual([]);
    expect(fs.readdirSync(dir).filter((n) => n.includes('.checkpoint.')).length).toBeLessThanOrEqual(3);
  }, 120_000);
});
