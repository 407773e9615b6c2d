/**
 * One engine, however it starts: the CLI's light context (`cairn search` in-process,
 * CAIRN_THIN=0) is made by the same root as the whole engine (electron/engine/assemble.ts),
 * so it lists the same sources. Before, it was assembled apart, without the SQLite-store
 * sessions: on a copy of OpenClaw 2026.9.6's state dir, `cairn index` indexed 8 files (2
 * notes, 6 store sessions), then `cairn search quince --source sessions` found nothing and
 * its sync deleted the 6 sessions from the index (2 of 8 files left).
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { runCairn } from '../helpers/cli';
import { copyOpenClawState } from '../helpers/openclaw-state';

/** The paths in the index file Cairn keeps for this foreign state dir (in its data dir). */
function indexedPaths(dataDir: string): string[] {
  const base = path.join(dataDir, 'state-dirs');
  const [key] = fs.readdirSync(base);
  const db = new Database(path.join(base, key!, 'index', 'main.sqlite'), { readonly: true });
  try {
    return (db.prepare('SELECT path FROM files ORDER BY path').all() as { path: string }[]).map((r) => r.path);
  } finally {
    db.close();
  }
}

describe('the CLI light context is the same engine', () => {
  it("`cairn search --source sessions` finds OpenClaw's SQLite-store sessions and keeps them in the index", async () => {
    const oc = copyOpenClawState();
    // The sessions source on, through Cairn's own settings for that dir; keyword search only
    // (no embedder), so the test needs no model.
    fs.writeFileSync(path.join(oc.stateDir, 'cairn.json'), JSON.stringify({ agents: { defaults: { memorySearch: { sources: ['memory', 'sessions'], provider: 'none' } } } }));
    const env = { CAIRN_DATA_DIR: oc.dataDir, CAIRN_THIN: '0' };

    const indexed = await runCairn(['index', '--json', '--state-dir', oc.stateDir], { env });
    expect(indexed.code, indexed.stderr).toBe(0);
    expect(JSON.parse(indexed.stdout)).toMatchObject({ files: 8 });
    const before = indexedPaths(oc.dataDir);
    expect(before).toHaveLength(8);

    const found = await runCairn(['search', 'quince', '--source', 'sessions', '--json', '--state-dir', oc.stateDir], { env });
    expect(found.code, found.stderr).toBe(0);
    const results = (JSON.parse(found.stdout) as { results: { path: string; snippet: string }[] }).results;
    expect(results.find((r) => r.snippet.includes('my favourite fruit is the quince'))?.path).toBe('sessions/s1-alpha.jsonl');

    expect(indexedPaths(oc.dataDir)).toEqual(before);
  });
});
