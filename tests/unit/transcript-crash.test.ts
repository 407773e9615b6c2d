/**
 * Crash safety: a child process appends and compacts one transcript while the parent SIGKILLs
 * it at random moments, 30 times. After every kill the transcript must parse, its context must
 * rebuild, every line written before must still be there byte-for-byte (the old file is a prefix
 * of the new one), and every append or compaction the child reported as done must be on disk.
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
import { tmpDir } from '../helpers/tmp';

const here = path.dirname(fileURLToPath(import.meta.url));
const KILLS = 30;

function runAndKill(child: string, file: string, delayMs: number): Promise<{ confirmed: string[] }> {
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, [child, file], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    let timer: NodeJS.Timeout | undefined;
    p.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (!timer && out.includes('ready\n')) timer = setTimeout(() => p.kill('SIGKILL'), delayMs);
    });
    p.stderr.on('data', (d: Buffer) => (err += d.toString()));
    p.on('error', reject);
    p.on('exit', (code, signal) => {
      if (signal !== 'SIGKILL') return reject(new Error(`child exited on its own (code ${code}): ${err}`));
      // Only whole lines were reported before the kill.
      const lines = out.split('\n').slice(0, -1);
      const confirmed = lines.flatMap((l) => (l.startsWith('A ') ? l.slice(2).split(',') : l.startsWith('C ') ? [l.slice(2)] : []));
      resolve({ confirmed });
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
    let compactionsSeen = 0;
    for (let i = 0; i < KILLS; i++) {
      const before = fs.readFileSync(file);
      const { confirmed } = await runAndKill(child, file, 20 + Math.floor(Math.random() * 200));
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
    // The next writer cleans up temp files that dead writers left behind.
    await compact({ file, settings: CompactionSchema.parse({ keepRecentTokens: 300 }), contextWindowTokens: 50_000 });
    expect(fs.readdirSync(dir).filter((n) => n.endsWith('.tmp'))).toEqual([]);
    expect(fs.readdirSync(dir).filter((n) => n.includes('.checkpoint.')).length).toBeLessThanOrEqual(3);
  }, 120_000);
});
