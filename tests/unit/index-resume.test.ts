/**
 * A killed full rebuild resumes instead of restarting: the vectors it had embedded are in
 * the index's resume file (index/resume-cache.ts), so the next run embeds only the rest,
 * ends with the complete index, and removes the resume file.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { createEngine } from '../../electron/engine/engine';
import { FakeEmbedder } from '../../testkit/fake-embedder';
import { tmpDir, writeTree } from '../helpers/tmp';

// Enough for several embed batches (the sync embeds ~96 chunks per call).
const FILES = 400;

function seed(dir: string): string {
  const files: Record<string, string> = {
    'cairn.json': JSON.stringify({ agents: { defaults: { memorySearch: { provider: 'local' } } } }),
    // Cairn's own state dir, so the index (and its resume file) live in it.
    'cairn/state.json': JSON.stringify({ createdBy: 'cairn', writable: true, createdAt: '2026-11-01T00:00:00.000Z' }),
  };
  for (let i = 0; i < FILES; i++) {
    files[`workspace/memory/2026-10-${String((i % 28) + 1).padStart(2, '0')}-${i}.md`] = `# Note ${i}\n\nTopic ${i}: the service-${i} on port ${9000 + i} was restarted after ticket T-${i * 7}.\n`;
  }
  return writeTree(dir, files);
}

async function fullIndex(dir: string): Promise<{ embedded: number; chunks: number }> {
  const fake = new FakeEmbedder({ provider: 'fake-slow' });
  const engine = createEngine({ stateDir: dir, deps: { createEmbedder: async () => fake } });
  try {
    const res = await engine.dispatcher.dispatch('index.sync', {});
    if (!res.ok) throw new Error(res.error.message);
    return { embedded: fake.textsEmbedded, chunks: (res.value as { chunks: number }).chunks };
  } finally {
    await engine.dispose();
  }
}

/** Run the stalling child until it has embedded `stopAfter` texts, then SIGKILL it. */
function killMidRebuild(dir: string, stopAfter: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.resolve('tests/helpers/index-kill-child.ts'), dir, String(stopAfter)], { stdio: ['ignore', 'pipe', 'pipe'] });
    let err = '';
    child.stderr.on('data', (c: Buffer) => (err += c));
    child.stdout.on('data', (c: Buffer) => {
      if (c.toString().includes('stalled')) child.kill('SIGKILL');
    });
    child.on('error', reject);
    child.on('exit', (code, signal) => (signal === 'SIGKILL' ? resolve() : reject(new Error(`child exited ${code}: ${err}`))));
  });
}

describe('killed full rebuild', () => {
  it('resumes from the vectors it had embedded and re-embeds only the rest', async () => {
    const reference = await fullIndex(seed(tmpDir()));
    expect(reference.embedded).toBeGreaterThanOrEqual(FILES);

    const dir = seed(tmpDir());
    await killMidRebuild(dir, 150);
    const resumeFile = path.join(dir, 'cairn', 'index', 'main.sqlite.resume');
    expect(fs.existsSync(resumeFile)).toBe(true);
    const db = new Database(resumeFile, { readonly: true });
    const saved = db.prepare("SELECT COUNT(*) FROM embedding_cache WHERE provider = 'fake-slow'").pluck().get() as number;
    db.close();
    expect(saved).toBeGreaterThan(0);
    expect(saved).toBeLessThan(reference.embedded);

    const resumed = await fullIndex(dir);
    expect(resumed.embedded).toBe(reference.embedded - saved);
    expect(resumed.chunks).toBe(reference.chunks);
    expect(fs.existsSync(resumeFile)).toBe(false);
  }, 60_000);
});
