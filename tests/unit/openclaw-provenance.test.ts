/**
 * The provenance OpenClaw 2026.9.6 recorded in its agent store (memory_index_chunk_provenance,
 * memory_entry_origins), on search results and on the lines of a memory file, read from the
 * dreaming fixture the real OpenClaw wrote, through the engine and `cairn search`. OpenClaw's dir is byte-identical after the reads;
 * a store changed afterwards is read again. Real SQLite, real files, a deterministic embedder.
 */
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../../electron/engine/engine';
import { createDirectClient } from '../../electron/engine/rpc/direct';
import { runCli } from '../../electron/cli/main';
import { createRuntime } from '../../electron/cli/runtime';
import { FakeEmbedder } from '../../testkit/fake-embedder';
import { copyDreamingState } from '../helpers/openclaw-dreaming';
import { tmpDir } from '../helpers/tmp';

let engine: Engine | undefined;
afterEach(async () => {
  await engine?.dispose();
  engine = undefined;
});

function open() {
  const oc = copyDreamingState();
  engine = createEngine({ stateDir: oc.stateDir, deps: { env: { HOME: tmpDir('cairn-home-') }, createEmbedder: async () => new FakeEmbedder() } });
  return { oc, api: createDirectClient(engine) };
}

describe('provenance OpenClaw recorded', () => {
  it('labels a search result and the lines of MEMORY.md it still matches, leaving OpenClaw\'s dir as it was', async () => {
    const { oc, api } = open();
    const before = oc.tree();
    const res = await api['search.query']({ query: 'coffee order flat white', maxResults: 10, minScore: 0 });
    const coffee = res.results.find((r) => r.path === 'MEMORY.md' && r.snippet.includes('Coffee order'));
    expect(coffee?.provenance).toMatchObject({ origin: 'agent', sessionKind: 'unknown' });
    expect(coffee?.provenance?.observedAt).toMatch(/^2026-/u);

    const doc = await api['memory.read']({ path: 'MEMORY.md' });
    const ranges = doc.provenance?.map((p) => [p.startLine, p.endLine, p.provenance.origin]);
    expect(ranges).toEqual([[1, 2, 'agent'], [3, 3, 'agent'], [4, 4, 'agent'], [5, 5, 'agent'], [6, 7, 'agent']]);
    // OpenClaw indexed MEMORY.md before the promotions below line 7: those lines get no label.
    const user = await api['memory.read']({ path: 'USER.md' });
    expect(user.provenance?.length).toBe(4);
    expect(oc.tree()).toEqual(before);
  });

  it('names the sessions an entry was derived from (entry origins via its promotion marker), read again when the store changes', async () => {
    const { oc, api } = open();
    const first = await api['memory.read']({ path: 'MEMORY.md' });
    expect(first.provenance?.some((p) => p.provenance.sessions)).toBe(false);
    // OpenClaw records the origin of the promoted NAS entry (key from its marker line 10).
    const db = new Database(path.join(oc.stateDir, 'agents', 'main', 'agent', 'openclaw-agent.sqlite'));
    db.prepare('INSERT INTO memory_entry_origins VALUES (?, ?, ?, ?, ?, ?)').run('memory:memory/2026-11-29.md:1:4', 'main', 'd1-backups', 'agent:main:explicit:d1-backups', 'owner', 1796230824283);
    db.close();
    const doc = await api['memory.read']({ path: 'MEMORY.md' });
    expect(doc.provenance?.find((p) => p.provenance.sessions)).toEqual({
      startLine: 11,
      endLine: 11,
      provenance: { origin: 'owner', sessionKind: 'unknown', observedAt: new Date(1796230824283).toISOString(), sessions: ['d1-backups'] },
    });
    const res = await api['search.query']({ query: 'NAS snapshots kept 14 days pruned', maxResults: 10, minScore: 0 });
    const nas = res.results.find((r) => r.path === 'MEMORY.md' && r.startLine <= 11 && r.endLine >= 11);
    expect(nas?.provenance?.sessions).toEqual(['d1-backups']);
  });

  it('is printed by cairn search, and in its --json', async () => {
    const oc = copyDreamingState();
    const before = oc.tree();
    const run = async (args: string[]) => {
      let stdout = '';
      const rt = createRuntime({ stdout: (s) => (stdout += s), stderr: () => undefined, isTTY: false, deps: { env: { HOME: tmpDir('cairn-home-') }, createEmbedder: async () => new FakeEmbedder() } });
      expect(await runCli([...args, '--state-dir', oc.stateDir], rt)).toBe(0);
      return stdout;
    };
    expect(await run(['search', 'coffee order flat white'])).toMatch(/MEMORY\.md#L\d+-L\d+ .*\n(?: {3}.*\n)*? {3}# provenance: agent · observed 2026-/u);
    const json = JSON.parse(await run(['search', 'coffee order flat white', '--json'])) as { results: { path: string; provenance?: { origin: string } }[] };
    expect(json.results.find((r) => r.path === 'MEMORY.md')?.provenance?.origin).toBe('agent');
    expect(oc.tree()).toEqual(before);
  });
});
