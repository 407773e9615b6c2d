/**
 * An index built before session transcripts rendered compaction summaries (chunker version
 * 2) holds no `Summary:` chunks, and its files look unchanged to an incremental sync: the
 * chunker version in its identity is what makes the next sync rebuild it, so a phrase only
 * the summary holds becomes findable.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { createEngine } from '../../electron/engine/engine';
import { createDirectClient } from '../../electron/engine/rpc/direct';
import { FakeEmbedder } from '../../testkit/fake-embedder';
import { OC2026_LEGACY_DIR } from '../helpers/openclaw-2026';
import { tmpDir, writeTree } from '../helpers/tmp';

describe('chunker version', () => {
  it('an index of chunker version 2 (no compaction summaries) is rebuilt, and the summary is found', async () => {
    const stateDir = tmpDir();
    writeTree(stateDir, { 'cairn.json': JSON.stringify({ agents: { defaults: { memorySearch: { sources: ['memory', 'sessions'] } } } }), 'workspace/MEMORY.md': '# Memory\n' });
    fs.mkdirSync(path.join(stateDir, 'agents/main/sessions'), { recursive: true });
    fs.copyFileSync(path.join(OC2026_LEGACY_DIR, 'agents/main/sessions/s1-alpha.jsonl'), path.join(stateDir, 'agents/main/sessions/s1-alpha.jsonl'));
    const engine = createEngine({ stateDir, deps: { createEmbedder: async () => new FakeEmbedder() } });
    try {
      const api = createDirectClient(engine);
      await api['index.sync']({});
      // Make it the index an older Cairn built: no Summary chunks, chunker version 2.
      const db = new Database(engine.ctx.paths().indexFile);
      // The summary is JSONL line 44, hard-split into several chunks that all cite it.
      const ids = db.prepare("SELECT id FROM chunks WHERE path = 'sessions/s1-alpha.jsonl' AND start_line <= 44 AND end_line >= 44").all() as { id: number }[];
      expect(ids.length).toBeGreaterThan(0);
      for (const { id } of ids) db.prepare('DELETE FROM chunks WHERE id = ?').run(id);
      const identity = JSON.parse((db.prepare("SELECT value FROM meta WHERE key = 'identity'").get() as { value: string }).value) as { chunking: { version: number } };
      identity.chunking.version = 2;
      db.prepare("UPDATE meta SET value = ? WHERE key = 'identity'").run(JSON.stringify(identity));
      db.close();
      await api['index.sync']({});
      const res = await api['search.query']({ query: 'marmalade-otter', source: 'sessions' });
      expect(res.results.some((r) => r.snippet.includes('marmalade-otter') && r.path === 'sessions/s1-alpha.jsonl')).toBe(true);
    } finally {
      await engine.dispose();
    }
  });
});
