/**
 * The index's write worker (index/write-worker.ts, write-client.ts): a sync with its SQLite
 * writes made in a worker thread builds the same index as one written on the engine's thread;
 * while the worker is stuck (held inside a write, as on a long fsync) the engine still
 * answers searches from the old index; a failure or a cancel inside the worker surfaces as a
 * clear error and leaves the old index as it was, with no temp file behind.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FakeEmbedder } from '../../testkit/fake-embedder';
import { openDatabase } from '../../electron/engine/index/db';
import type { SyncProgress } from '../../electron/engine/index/sync';
import type { WriteFault } from '../../electron/engine/index/write-worker';
import { memoryFixture, type Fixture } from '../helpers/memory-fixture';

/** A memory of a dozen notes, a few chunks each. */
function notes(): Record<string, string> {
  const files: Record<string, string> = { 'workspace/MEMORY.md': '# Preferences\n\nPrefers dark mode and vim keybindings.\n' };
  for (let d = 1; d <= 12; d++) {
    const day = `2024-05-${String(d).padStart(2, '0')}`;
    const lines = [`# ${day}`, ''];
    for (let i = 0; i < 30; i++) lines.push(`- ${day} note ${i}: ${['deploy staging', 'budget review', 'kayak trip', 'retry logic'][i % 4]} number ${d * 100 + i}`);
    files[`workspace/memory/${day}.md`] = `${lines.join('\n')}\n`;
  }
  return files;
}

const QUERIES = ['kayak trip', 'budget review 305', 'dark mode vim', 'retry logic staging'];

/** The local provider: line vectors on and a resume file, as with the real GGUF embedder. */
const embedder = () => new FakeEmbedder({ provider: 'local', model: 'writer-test', dims: 64 });

type Index = ReturnType<Fixture['open']>;

async function answers(idx: Index): Promise<unknown[]> {
  const out: unknown[] = [];
  for (const query of QUERIES) {
    const res = await idx.search({ query, minScore: 0, maxResults: 8 });
    out.push(res.results.map((r) => [r.path, r.startLine, r.endLine, r.score.toFixed(6)]));
  }
  return out;
}

function counts(file: string): Record<string, number> {
  const { db } = openDatabase(file, { readonly: true });
  try {
    const has = (t: string) => db.prepare('SELECT 1 FROM sqlite_master WHERE name = ?').get(t) !== undefined;
    const n = (t: string) => (has(t) ? (db.prepare(`SELECT COUNT(*) AS n FROM ${t}`).pluck().get() as number) : -1);
    return { files: n('files'), chunks: n('chunks'), fts: n('chunks_fts'), vec: n('chunks_vec'), lines: n('chunk_lines'), cache: n('embedding_cache') };
  } finally {
    db.close();
  }
}

const temps = (fx: Fixture) => fs.readdirSync(path.dirname(fx.indexFile)).filter((f) => f.includes('.tmp-'));

/** A shared flag pair for a fault's `hold`: wait until the worker is held, then let it go. */
function holder(): { buf: SharedArrayBuffer; held: () => Promise<void>; release: () => void } {
  const buf = new SharedArrayBuffer(8);
  const a = new Int32Array(buf);
  return {
    buf,
    held: async () => {
      // Node 20 has Atomics.waitAsync; the compiler's lib (ES2022) does not know it yet.
      const waitAsync = (Atomics as unknown as { waitAsync(a: Int32Array, i: number, v: number): { value: unknown } }).waitAsync;
      await waitAsync(a, 1, 0).value;
    },
    release: () => {
      Atomics.store(a, 0, 1);
      Atomics.notify(a, 0);
    },
  };
}

/** An index built on the engine's thread, then reopened with the write worker (and `fault`). */
async function builtThenWorker(fault?: WriteFault): Promise<{ fx: Fixture; idx: Index; before: unknown[]; rows: Record<string, number> }> {
  const fx = memoryFixture(notes());
  const first = fx.open({ embedder: embedder(), writeWorker: 'off' });
  await first.sync();
  const before = await answers(first);
  await first.dispose();
  const idx = fx.open({ embedder: embedder(), writeWorker: 'on', ...(fault ? { writeWorkerFault: fault } : {}) });
  return { fx, idx, before, rows: counts(fx.indexFile) };
}

describe('index write worker', () => {
  it('a rebuild and an incremental sync written by the worker give the same index and results as on the engine thread, with progress', async () => {
    const here = memoryFixture(notes());
    const there = memoryFixture(notes());
    const a = here.open({ embedder: embedder(), writeWorker: 'off' });
    const b = there.open({ embedder: embedder(), writeWorker: 'on' });
    const phases: SyncProgress['phase'][] = [];
    const ra = await a.sync();
    const rb = await b.sync({ onProgress: (p) => phases.push(p.phase) });
    expect({ ...rb, durationMs: 0 }).toEqual({ ...ra, durationMs: 0 });
    expect(phases).toContain('write');
    expect(phases.at(-1)).toBe('done');
    expect(counts(there.indexFile)).toEqual(counts(here.indexFile));
    expect(counts(there.indexFile).lines).toBeGreaterThan(0);
    expect(await answers(b)).toEqual(await answers(a));
    // Incremental: one note changed, one removed, one touched without a change.
    for (const fx of [here, there]) {
      fs.appendFileSync(path.join(fx.workspace, 'memory/2024-05-03.md'), '- a canoe trip on the lake, planned for June\n');
      fs.rmSync(path.join(fx.workspace, 'memory/2024-05-07.md'));
      fs.utimesSync(path.join(fx.workspace, 'MEMORY.md'), new Date(), new Date(Date.now() + 5000));
    }
    const ia = await a.sync();
    const ib = await b.sync();
    expect({ ...ib, durationMs: 0 }).toEqual({ ...ia, durationMs: 0 });
    expect(ib).toMatchObject({ full: false, files: 12 });
    expect(counts(there.indexFile)).toEqual(counts(here.indexFile));
    expect(await answers(b)).toEqual(await answers(a));
    expect((await b.search({ query: 'canoe lake', minScore: 0 })).results[0]?.path).toBe('memory/2024-05-03.md');
    expect(await b.isDirty()).toBe(false);
    await a.dispose();
    await b.dispose();
  });

  it('a note big enough to be streamed is written part by part by the worker, as on the engine thread', async () => {
    // Past STREAM_FROM_BYTES (4 MB): read, chunked and written in parts inside one savepoint.
    const big = Array.from({ length: 90_000 }, (_, i) => `- entry ${i}: ${i === 89_999 ? 'the narwhal came back' : 'ordinary filler text for a very long memory file'}`).join('\n');
    const out: Record<string, number>[] = [];
    for (const writeWorker of ['off', 'on'] as const) {
      const fx = memoryFixture({ 'workspace/MEMORY.md': `${big}\n` });
      const idx = fx.open({ writeWorker, embedder: new FakeEmbedder() });
      const r = await idx.sync();
      expect(r.unreadable).toEqual([]);
      expect((await idx.search({ query: 'narwhal' })).results[0]).toMatchObject({ path: 'MEMORY.md', endLine: 90_000 });
      out.push(counts(fx.indexFile));
      await idx.dispose();
    }
    expect(out[1]).toEqual(out[0]);
    expect(out[0]!.chunks).toBeGreaterThan(1000);
  });

  it('answers a search from the old index while the worker is stuck inside a rebuild write', async () => {
    const h = holder();
    const { fx, idx, before } = await builtThenWorker({ op: 'writeBatch', nth: 1, hold: h.buf });
    const run = idx.sync({ force: true });
    // The worker thread is blocked in its first batch (as on a long fsync): without the
    // worker, this thread would be the one blocked and nothing below could run.
    await h.held();
    expect(idx.syncing()).toBe('rebuild');
    expect(await answers(idx)).toEqual(before);
    h.release();
    expect(await run).toMatchObject({ full: true, files: 13 });
    expect(await answers(idx)).toEqual(before);
    expect(temps(fx)).toEqual([]);
    await idx.dispose();
  });

  for (const op of ['openRebuild', 'writeBatch', 'finish', 'backupOrFlush'] as const) {
    it(`an I/O error in the worker at ${op} fails the rebuild clearly and keeps the old index`, async () => {
      const { fx, idx, before, rows } = await builtThenWorker({ op, message: 'disk I/O error (injected)' });
      const err = (await idx.sync({ force: true }).catch((e: unknown) => e)) as Error & { code?: string };
      expect(err).toBeInstanceOf(Error);
      expect(err.message).toMatch(/write worker failed: disk I\/O error \(injected\)/);
      expect(err.code).toBe('SQLITE_IOERR');
      expect(counts(fx.indexFile)).toEqual(rows);
      expect(await answers(idx)).toEqual(before);
      expect(temps(fx)).toEqual([]);
      expect(await idx.isDirty()).toBe(true); // the next search syncs again
      await idx.dispose();
    });
  }

  it('a cancelled rebuild stops the worker mid-write and keeps the old index', async () => {
    const h = holder();
    const { fx, idx, before, rows } = await builtThenWorker({ op: 'writeBatch', nth: 1, hold: h.buf });
    const ac = new AbortController();
    const run = idx.sync({ force: true, signal: ac.signal }).catch((e: unknown) => e);
    await h.held();
    ac.abort();
    h.release();
    expect(((await run) as Error).name).toBe('AbortError');
    expect(counts(fx.indexFile)).toEqual(rows);
    expect(await answers(idx)).toEqual(before);
    expect(temps(fx)).toEqual([]);
    await idx.dispose();
  });

  it('an SQL error while the worker writes one file names that file and indexes the rest', async () => {
    const { fx, idx } = await builtThenWorker();
    const { db } = openDatabase(fx.indexFile, { mustExist: true });
    db.exec("CREATE TRIGGER refuse BEFORE INSERT ON chunks WHEN NEW.path = 'memory/2024-05-05.md' BEGIN SELECT RAISE(ABORT, 'refused by the test trigger'); END");
    db.close();
    fs.appendFileSync(path.join(fx.workspace, 'memory/2024-05-05.md'), '- an otter by the river\n');
    fs.appendFileSync(path.join(fx.workspace, 'memory/2024-05-06.md'), '- a heron by the river\n');
    const r = await idx.sync();
    expect(r.unreadable).toEqual([{ path: 'memory/2024-05-05.md', reason: expect.stringContaining('refused by the test trigger') }]);
    expect((await idx.search({ query: 'heron river', minScore: 0 })).results[0]?.path).toBe('memory/2024-05-06.md');
    expect((await idx.status()).warnings.join('\n')).toContain('memory/2024-05-05.md');
    await idx.dispose();
  });

  it('the write side is what the caller passes in: CAIRN_WRITE_WORKER in the environment changes nothing', async () => {
    const fault: WriteFault = { op: 'writeBatch', message: 'disk I/O error (injected)' };
    const saved = process.env.CAIRN_WRITE_WORKER;
    process.env.CAIRN_WRITE_WORKER = 'on';
    try {
      // No `writeWorker` given (auto): a 13-file rebuild writes on the engine thread, so the worker's fault never fires.
      const fx = memoryFixture(notes());
      const auto = fx.open({ embedder: embedder(), writeWorker: undefined, writeWorkerFault: fault });
      expect(await auto.sync({ force: true })).toMatchObject({ full: true, files: 13 });
      await auto.dispose();
      // Passed in, the worker writes (and the injected fault fails the rebuild).
      const on = fx.open({ embedder: embedder(), writeWorker: 'on', writeWorkerFault: fault });
      await expect(on.sync({ force: true })).rejects.toThrow(/write worker failed: disk I\/O error \(injected\)/);
      await on.dispose();
    } finally {
      if (saved === undefined) delete process.env.CAIRN_WRITE_WORKER;
      else process.env.CAIRN_WRITE_WORKER = saved;
    }
  });
});
