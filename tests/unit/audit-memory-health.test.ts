/**
 * The MEMORY.md health list (issue 32) on a planted workspace: a duplicate by normalised text,
 * a duplicate by the index's stored line vectors, a contradiction by a later daily note (the
 * same port, a new value), a cited source that is gone, an entry never recalled since it was
 * promoted (OpenClaw's recall store, read only) — each with its evidence; the fix removes the
 * line through memory.write where writing is on; an OpenClaw dir is read-only and recall
 * "unknown" when there is no store.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../electron/cli/main';
import { createRuntime } from '../../electron/cli/runtime';
import { createEngine } from '../../electron/engine/engine';
import { createDirectClient } from '../../electron/engine/rpc/direct';
import { hashedLineUnits } from '../../electron/engine/index/line-vectors';
import { vecBlob } from '../../electron/engine/index/store';
import { cacheKey } from '../../electron/engine/index/vector-cache';
import type { MemoryHealth } from '../../shared/types/audit';
import { copyOpenClawState } from '../helpers/openclaw-state';
import { tmpDir, writeTree } from '../helpers/tmp';

const MEMORY = [
  '# Memory',
  '',
  '- The user prefers dark mode in every editor.',
  '- The staging database listens on port 5432.',
  '- User prefers dark mode in every editor',
  '- Deploy checklist lives in docs/deploy.md. Source: memory/2026-10-01.md#L3-L3',
  '<!-- openclaw-memory-promotion:tea -->',
  '- Favourite tea is genmaicha. Source: memory/2026-11-01.md#L3-L3 <!-- trigger: tea --> <!-- importance: 6 -->',
  '- Our cat is called Miso and she turned eleven years old this spring.',
  '- Miso, the family cat, had her eleventh birthday a few weeks ago.',
  '',
].join('\n');

function plantedState(): string {
  const stateDir = tmpDir('cairn-health-');
  writeTree(stateDir, {
    'workspace/MEMORY.md': MEMORY,
    'workspace/memory/2026-11-01.md': '# 2026-11-01\n\n- Favourite tea is genmaicha.\n',
    'workspace/memory/2026-12-02.md': '# 2026-12-02\n\n- Moved the staging database to port 6543 today.\n',
  });
  // OpenClaw's recall store: the tea entry was promoted on Nov 2 and last recalled on Nov 1.
  fs.mkdirSync(path.join(stateDir, 'state'));
  const db = new Database(path.join(stateDir, 'state', 'openclaw.sqlite'));
  db.exec('CREATE TABLE plugin_state_entries (plugin_id TEXT NOT NULL, namespace TEXT NOT NULL, entry_key TEXT NOT NULL, value_json TEXT NOT NULL, created_at INTEGER NOT NULL, expires_at INTEGER, PRIMARY KEY (plugin_id, namespace, entry_key))');
  const value = { path: 'memory/2026-11-01.md', startLine: 3, endLine: 3, snippet: 'Favourite tea is genmaicha.', recallCount: 3, lastRecalledAt: '2026-11-01T10:00:00.000Z', promotedAt: '2026-11-02T03:00:00.000Z' };
  db.prepare('INSERT INTO plugin_state_entries VALUES (?, ?, ?, ?, ?, NULL)').run('memory-core', 'short-term-recall', 'k1', JSON.stringify({ version: 1, workspaceDir: path.join(stateDir, 'workspace'), key: 'tea', value }), Date.now());
  db.close();
  return stateDir;
}

/** An index file holding MEMORY.md's line vectors as an index with line vectors stores them: the two cat lines point the same way. */
function plantVectors(indexFile: string): void {
  fs.mkdirSync(path.dirname(indexFile), { recursive: true });
  const db = new Database(indexFile);
  db.exec(`CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL); CREATE TABLE chunks (id INTEGER PRIMARY KEY, path TEXT, text TEXT);
    CREATE TABLE chunk_lines (id INTEGER PRIMARY KEY, chunk_id INTEGER);
    CREATE TABLE embedders (id INTEGER PRIMARY KEY, provider TEXT, model TEXT);
    CREATE TABLE embedding_cache (id INTEGER PRIMARY KEY, embedder INTEGER, hash BLOB, used INTEGER, embedding BLOB)`);
  db.prepare("INSERT INTO meta VALUES ('identity', ?)").run(JSON.stringify({ provider: 'local', model: 'mini' }));
  db.prepare("INSERT INTO embedders VALUES (1, 'local', 'mini')").run();
  db.prepare('INSERT INTO chunks (path, text) VALUES (?, ?)').run('MEMORY.md', MEMORY);
  hashedLineUnits(MEMORY).forEach((u, i) => {
    const v = new Float32Array(8);
    v[u.text.includes('Miso') ? 7 : i % 7] = 1;
    if (u.text.includes('eleventh')) v[6] = 0.05;
    db.prepare('INSERT INTO embedding_cache (embedder, hash, used, embedding) VALUES (1, ?, 0, ?)').run(cacheKey(u.hash), vecBlob(v));
  });
  db.close();
}

describe('MEMORY.md health', () => {
  it('lists the planted duplicate, contradiction, stale source and never-recalled entry with their evidence, and the fix removes a line', async () => {
    const stateDir = plantedState();
    const engine = createEngine({ stateDir });
    // A dir Cairn did not create is read-only until writing is turned on (as in Settings).
    engine.ctx.setWritable(true);
    try {
      plantVectors(engine.ctx.paths().indexFile);
      const api = createDirectClient(engine);
      const h = await api['memory.health']({});
      expect(h).toMatchObject({ exists: true, writable: true, recall: { state: 'known' }, vectors: { used: true } });
      const by = (kind: string) => h.items.filter((i) => i.kind === kind);
      const dup = by('duplicate').find((i) => i.detail === 'text');
      expect(dup).toMatchObject({ entry: { line: 5 }, evidence: [{ line: 3, text: 'The user prefers dark mode in every editor.' }] });
      expect(by('duplicate').find((i) => i.detail === 'vector')).toMatchObject({ entry: { line: 10 }, evidence: [{ line: 9 }] });
      expect(by('contradiction')).toEqual([
        expect.objectContaining({ entry: expect.objectContaining({ line: 4 }), detail: 'port', evidence: [{ path: 'memory/2026-12-02.md', line: 3, text: 'Moved the staging database to port 6543 today.' }] }),
      ]);
      expect(by('contradiction')[0]?.message).toBe('Says port 5432; memory/2026-12-02.md (2026-12-02) says 6543.');
      expect(by('stale-source')).toEqual([expect.objectContaining({ entry: expect.objectContaining({ line: 6 }), message: 'Cites memory/2026-10-01.md#L3, which no longer exists.' })]);
      expect(by('never-recalled')).toEqual([expect.objectContaining({ entry: expect.objectContaining({ line: 8 }) })]);
      // The fix is the whole file without the duplicate; written through memory.write, it is gone from the list.
      const file = path.join(stateDir, 'workspace', 'MEMORY.md');
      await api['memory.write']({ path: 'MEMORY.md', text: dup!.fix!.text, expectedMtime: h.mtimeMs });
      expect(fs.readFileSync(file, 'utf8')).toBe(MEMORY.replace('- User prefers dark mode in every editor\n', ''));
      // And removing the promoted entry takes its promotion marker with it; a near-duplicate that says more is merged into the earlier place.
      const again = await api['memory.health']({});
      const never = again.items.find((i) => i.kind === 'never-recalled');
      expect(never?.fix?.text).not.toContain('openclaw-memory-promotion:tea');
      expect(again.items.filter((i) => i.kind === 'duplicate' && i.detail === 'text')).toEqual([]);
      fs.writeFileSync(file, '- Backups run nightly with restic to the NAS\n- Other fact here.\n- Backups run nightly with restic to the NAS at 02:00 sharp\n');
      const merged = (await api['memory.health']({})).items.find((i) => i.kind === 'duplicate');
      expect(merged?.fix).toEqual({ kind: 'merge', path: 'MEMORY.md', text: '- Backups run nightly with restic to the NAS at 02:00 sharp\n- Other fact here.\n' });
    } finally {
      await engine.dispose();
    }
  });

  it('in an OpenClaw dir: read-only, recall unknown without its store, and cairn audit --memory --json says so', async () => {
    const oc = copyOpenClawState();
    const before = oc.tree();
    let stdout = '';
    const code = await runCli(['audit', '--memory', '--json', '--state-dir', oc.stateDir], createRuntime({ stdout: (s) => (stdout += s), stderr: () => {}, isTTY: false }));
    expect(code).toBe(0);
    const h = JSON.parse(stdout) as MemoryHealth;
    expect(h).toMatchObject({ exists: true, writable: false, entries: 4, recall: { state: 'unknown' } });
    expect(h.recall.reason).toContain('recall store was not found');
    expect(oc.tree()).toEqual(before);
  });
});
