/**
 * How provenance (openclaw/provenance.ts) reads the memory files it checks OpenClaw's chunks
 * against (issue 38, item 11): under the memory set's one symlink rule (util/path-inside.ts —
 * no symlink between the workspace and the file: a linked file or folder shows no label, even
 * when what it leads to reads exactly as OpenClaw indexed it), and through a cache that is
 * bounded (least recently used files dropped) instead of a module-level map that grew with
 * every file and outlived the engine. On the store the real OpenClaw 2026.9.6 wrote.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { provenanceCache, rangeProvenance, storeProvenance } from '../../electron/engine/openclaw/provenance';
import { copyDreamingState } from '../helpers/openclaw-dreaming';
import { tmpDir } from '../helpers/tmp';

function opened() {
  const oc = copyDreamingState();
  const cache = provenanceCache();
  const store = storeProvenance(cache, oc.stateDir, 'main', tmpDir('cairn-snap-'));
  return { oc, cache, store };
}

describe('provenance of memory files', () => {
  it('labels a real file, and no file reached through a symlink (file or folder)', () => {
    const { oc, cache, store } = opened();
    expect(rangeProvenance(cache, store, oc.workspace, 'MEMORY.md', 1, 2)).toMatchObject({ origin: 'agent' });
    expect(rangeProvenance(cache, store, oc.workspace, 'memory/2026-11-29.md', 1, 4)).toBeDefined();

    // The same bytes, outside the workspace, behind a link: MEMORY.md itself…
    const outside = tmpDir('cairn-outside-');
    fs.renameSync(path.join(oc.workspace, 'MEMORY.md'), path.join(outside, 'MEMORY.md'));
    fs.symlinkSync(path.join(outside, 'MEMORY.md'), path.join(oc.workspace, 'MEMORY.md'));
    // …and the daily notes' folder.
    fs.renameSync(path.join(oc.workspace, 'memory'), path.join(outside, 'memory'));
    fs.symlinkSync(path.join(outside, 'memory'), path.join(oc.workspace, 'memory'));
    const fresh = provenanceCache();
    expect(rangeProvenance(fresh, store, oc.workspace, 'MEMORY.md', 1, 2)).toBeUndefined();
    expect(rangeProvenance(fresh, store, oc.workspace, 'memory/2026-11-29.md', 1, 4)).toBeUndefined();
    // The cache that read the real file earlier does not answer for the link either.
    expect(rangeProvenance(cache, store, oc.workspace, 'MEMORY.md', 1, 2)).toBeUndefined();
  });

  it('keeps at most its budget of file lines, dropping the least recently read', () => {
    const { oc, store } = opened();
    const bytes = (rel: string) => fs.statSync(path.join(oc.workspace, rel)).size;
    const daily = ['2026-11-29', '2026-11-30', '2026-12-01', '2026-12-02', '2026-12-03'].map((d) => `memory/${d}.md`);
    // Room for about two daily notes.
    const budget = 2 * Math.max(...daily.map(bytes)) + 8;
    const cache = provenanceCache(budget);
    for (const rel of daily) expect(rangeProvenance(cache, store, oc.workspace, rel, 1, 4)).toBeDefined();
    expect(cache.files.calculatedSize).toBeLessThanOrEqual(budget);
    expect(cache.files.size).toBeLessThan(daily.length);
    // The newest read is kept; the oldest was dropped, and is read again when asked for.
    expect(cache.files.has(path.join(oc.workspace, daily[4]!))).toBe(true);
    expect(cache.files.has(path.join(oc.workspace, daily[0]!))).toBe(false);
    expect(rangeProvenance(cache, store, oc.workspace, daily[0]!, 1, 4)).toBeDefined();
  });
});
