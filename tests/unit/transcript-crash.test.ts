/**
 * Crash safety: a child process appends and compacts one transcript until it SIGKILLs itself
 * at a fault point the test names — a plain append's line half written, a compaction's
 * checkpoint copied but not renamed, the checkpoint in place before the entry, the compaction
 * entry half written, the entry written but not fsynced (tests/helpers/crash-child.ts) —
 * 30 times, each point in turn, the n-th time it is reached (seeded). So every kill lands
 * where the test says, whatever the machine's load (it used to SIGKILL from outside 1–4 ms
 * after a marker, which lands elsewhere on a busy machine). After every kill the transcript
 * must parse, its context must rebuild, every line written before must still be there
 * byte-for-byte (the old file is a prefix of the new one), and every append or compaction the
 * child reported as done must be on disk.
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
import { FAULT_POINTS, type FaultPoint } from '../helpers/crash-faults';
import { rng } from '../helpers/seed-writer';
import { tmpDir } from '../helpers/tmp';

const here = path.dirname(fileURLToPath(import.meta.url));
const KILLS = 30;
/** The mtime an orphaned lock is aged to: long past proper-lockfile's staleness. */
const AGED = new Date('2001-01-01T00:00:00Z');

/**
 * Run the child (PRNG seed `seed`) until it kills itself at `fault` (`<point>:<n>`). Returns
 * the ids it confirmed, the point it said it died at, and whether it died holding the
 * transcript's lock (only a compaction's write takes it).
 */
function runToFault(child: string, file: string, seed: number, fault: string): Promise<{ confirmed: string[]; landed: string | undefined; held: boolean }> {
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, [child, file, String(seed), fault], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    p.stdout.on('data', (d: Buffer) => (out += d.toString()));
    p.stderr.on('data', (d: Buffer) => (err += d.toString()));
    p.on('error', reject);
    p.on('exit', (code, signal) => {
      if (signal !== 'SIGKILL') return reject(new Error(`child exited on its own (code ${code}): ${err}`));
      // Only whole lines were reported before the kill.
      const lines = out.split('\n').slice(0, -1);
      const confirmed = lines.flatMap((l) => (l.startsWith('A ') ? l.slice(2).split(',') : l.startsWith('C ') ? [l.slice(2)] : []));
      const last = lines.at(-1);
      // The lock directory outlives a writer killed while holding it. (A lock still aged by us
      // is an older orphan nobody has taken over yet, not this child's.)
      const lock = fs.statSync(lockPathOf(file), { throwIfNoEntry: false });
      const held = lock !== undefined && lock.mtimeMs > AGED.getTime();
      // Age the orphaned lock past proper-lockfile's 10 s staleness, so the next writer takes it
      // over at once, as it would 10 s later, instead of every run waiting for it.
      if (held) fs.utimesSync(lockPathOf(file), AGED, AGED);
      resolve({ confirmed, landed: last?.startsWith('x ') ? last.slice(2) : undefined, held });
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
    const landings = new Map<FaultPoint, number>();
    const random = rng(0x5eed);
    let compactionsSeen = 0;
    for (let i = 0; i < KILLS; i++) {
      const before = fs.readFileSync(file);
      const point = FAULT_POINTS[i % FAULT_POINTS.length]!;
      const { confirmed, landed, held } = await runToFault(child, file, 1000 + i, `${point}:${1 + Math.floor(random() * 3)}`);
      // The child died where it was told to; inside a compaction's write it held the lock.
      expect(landed).toBe(point);
      expect(held).toBe(point !== 'append-torn');
      landings.set(point, (landings.get(point) ?? 0) + 1);
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
    expect([...landings.keys()].sort()).toEqual([...FAULT_POINTS].sort());
    expect(everConfirmed.size).toBeGreaterThan(KILLS);
    expect(compactionsSeen).toBeGreaterThan(0);
    // The next writer cleans up temp files that dead writers left behind (every
    // `checkpoint-copy` kill left one).
    await compact({ file, settings: CompactionSchema.parse({ keepRecentTokens: 300 }), contextWindowTokens: 50_000 });
    expect(fs.readdirSync(dir).filter((n) => n.endsWith('.tmp'))).toEqual([]);
    expect(fs.readdirSync(dir).filter((n) => n.includes('.checkpoint.')).length).toBeLessThanOrEqual(3);
  }, 120_000);
});
