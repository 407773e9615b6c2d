/**
 * The dreaming views on a state dir the real OpenClaw 2026.9.6 wrote
 * (tests/fixtures/openclaw-2026.9.6-dreaming): MEMORY.md's versions (dreaming's saved copy
 * before its rewrite, then the file now), the promotion the sweep made with the daily note it
 * came from, the sessions that searched for it, its recall count and distinct queries; why
 * the Lisbon and dentist notes were not promoted; a version Cairn saw kept in Cairn's own dir;
 * DREAMS.md, the phase reports and the blocks dreaming manages in daily notes; the CLI. After
 * every call OpenClaw's dir is byte-identical.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../../electron/engine/engine';
import { createDirectClient } from '../../electron/engine/rpc/direct';
import { seenVersionsDir } from '../../electron/engine/dreaming/handlers';
import { copyDreamingState } from '../helpers/openclaw-dreaming';
import { cairnInProcess } from '../helpers/openclaw-2026';
import { tmpDir } from '../helpers/tmp';

let engine: Engine | undefined;
afterEach(async () => {
  await engine?.dispose();
  engine = undefined;
});

function open() {
  const oc = copyDreamingState();
  engine = createEngine({ stateDir: oc.stateDir, deps: { env: { HOME: tmpDir('cairn-home-') } } });
  return { oc, api: createDirectClient(engine) };
}

describe('MEMORY.md history on the real OpenClaw dreaming fixture', () => {
  it("shows dreaming's saved copy, then the rewrite with the promoted entry, its source and its evidence", async () => {
    const { oc, api } = open();
    const before = oc.tree();
    const h = await api['dreaming.history']({});
    expect(oc.tree()).toEqual(before);
    expect(h.store.workspaceMatch).toBe('relocated');
    expect(h.store.recordedWorkspace).toBe('/home/user/.openclaw/workspace');
    const kinds = h.versions.map((v) => v.kind);
    expect(kinds).toContain('dreaming-backup');
    expect(kinds.at(-1)).toBe('current');
    const current = h.versions.at(-1)!;
    const backup = h.versions.find((v) => v.kind === 'dreaming-backup')!;
    // The saved copy is MEMORY.md after `promote --apply` (the NAS note) and before the sweep's rewrite (Glacier).
    expect(backup.text).toContain('NAS snapshots');
    expect(backup.text).not.toContain('Consolidated Memory');
    expect(current.added.some((l) => l.includes('Glacier') && l.includes('Source: memory/2026-11-30.md#L1-L4'))).toBe(true);
    expect(current.removed).toEqual([]);
    const promo = current.promotions.find((p) => p.text.includes('Glacier'))!;
    expect(promo.key).toBe('memory:memory/2026-11-30.md:1:4');
    expect(promo.source).toEqual({ path: 'memory/2026-11-30.md', startLine: 1, endLine: 4 });
    expect(promo.annotations.triggers).toContain('glacier');
    expect(promo.annotations.importance).toBeGreaterThanOrEqual(1);
    const e = promo.evidence!;
    expect(e.recallCount).toBe(4);
    expect(e.uniqueQueries).toBe(4);
    expect([...e.queries].sort()).toEqual(['glacier backup', 'glacier restore test', 'nas glacier sync', 'sunday backups glacier']);
    expect(e.recallDays).toEqual(['2026-11-30', '2026-12-01', '2026-12-02']);
    // d1-backups and d2-network are in cold storage: their searches are read from the archives.
    expect(new Set(e.sessions.map((s) => s.sessionId))).toEqual(new Set(['d1-backups', 'd2-network', 'd3-evening']));
    expect(e.promotedAt).toBeTruthy();
    expect(e.originClass).toBe('agent');
  });

  it('lists the append-path promotion with the score OpenClaw wrote, and says why VLAN, Lisbon and the dentist were not promoted', async () => {
    const { api } = open();
    const h = await api['dreaming.history']({});
    const nas = h.promoted.find((p) => p.text.includes('NAS snapshots'))!;
    expect(nas.score).toBe(0.866);
    expect(nas.source).toEqual({ path: 'memory/2026-11-29.md', startLine: 1, endLine: 4 });
    expect(nas.evidence?.sessions.map((s) => s.sessionId)).toContain('d4-morning');
    const vlan = h.waiting.find((c) => c.evidence.key === 'memory:memory/2026-12-01.md:1:4')!;
    expect(vlan.reasons[0]).toContain('A sweep promotes at most 1 (limit)');
    const lisbon = h.waiting.find((c) => c.evidence.key === 'memory:memory/2026-12-02.md:1:4')!;
    expect(lisbon.evidence.recallCount).toBe(3);
    expect(lisbon.reasons).toEqual(['Found by 1 distinct query; dreaming needs 3 (minUniqueQueries).']);
    const dentist = h.waiting.find((c) => c.evidence.key === 'memory:memory/2026-12-03.md:1:4')!;
    expect(dentist.reasons[0]).toBe('Surfaced 2 times; dreaming needs 3 (minRecallCount).');
    expect(h.thresholds).toEqual({ minScore: 0.75, minRecallCount: 3, minUniqueQueries: 3 });
  });

  it("keeps a version it saw in Cairn's own dir, so a later change to MEMORY.md has a before", async () => {
    const { oc, api } = open();
    await api['dreaming.history']({});
    const dir = seenVersionsDir(engine!.ctx, 'main');
    expect(path.relative(oc.stateDir, dir).startsWith('..')).toBe(true);
    expect(fs.readdirSync(dir).filter((f) => f.endsWith('.json')).length).toBe(1);
    // OpenClaw (here: the test, as OpenClaw would) adds an entry.
    const file = path.join(oc.workspace, 'MEMORY.md');
    fs.appendFileSync(file, '- Added by hand after the sweep.\n');
    // The memory watcher reports the change: the new text is kept as it appears.
    engine!.events.emit('memory.changed', { agentId: 'main', paths: ['MEMORY.md'] });
    expect(fs.readdirSync(dir).filter((f) => f.endsWith('.json')).length).toBe(2);
    const tree = oc.tree();
    const h = await api['dreaming.history']({});
    expect(oc.tree()).toEqual(tree);
    const last = h.versions.at(-1)!;
    expect(last.kind).toBe('current');
    expect(last.added).toEqual(['- Added by hand after the sweep.']);
    expect(h.versions.at(-2)?.kind).toBe('seen');
    expect(h.versions.at(-2)?.text).not.toContain('Added by hand');
  });
});

describe("dreaming's reports", () => {
  it('lists DREAMS.md, the phase reports and the managed blocks, and reads only those', async () => {
    const { oc, api } = open();
    const before = oc.tree();
    const r = await api['dreaming.reports']({});
    expect(r.files.map((f) => f.path)).toEqual(['DREAMS.md', 'memory/dreaming/deep/2026-12-04.md', 'memory/dreaming/light/2026-12-04.md', 'memory/dreaming/rem/2026-12-04.md']);
    expect(r.managedBlocks.map((b) => [b.path, b.heading])).toEqual([
      ['memory/2026-12-04.md', '## Light Sleep'],
      ['memory/2026-12-04.md', '## REM Sleep'],
    ]);
    const note = fs.readFileSync(path.join(oc.workspace, 'memory/2026-12-04.md'), 'utf8').split('\n');
    const light = r.managedBlocks[0]!;
    expect(note[light.startLine - 1]).toBe('## Light Sleep');
    expect(note[light.endLine - 1]).toBe('<!-- openclaw:dreaming:light:end -->');
    const diary = await api['dreaming.report']({ path: 'DREAMS.md' });
    expect(diary.text).toContain('# Dream Diary');
    await expect(api['dreaming.report']({ path: 'MEMORY.md' })).rejects.toThrow(/not one of dreaming's reports/);
    await expect(api['dreaming.report']({ path: '../openclaw.json' })).rejects.toThrow(/not one of dreaming's reports/);
    expect(oc.tree()).toEqual(before);
  });
});

describe('cairn dreaming', () => {
  it('prints the history with sources and reasons, and --json the same data', async () => {
    const oc = copyDreamingState();
    const before = oc.tree();
    const text = await cairnInProcess(['dreaming', 'history', '--state-dir', oc.stateDir]);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain('from memory/2026-11-30.md#L1-L4');
    expect(text.stdout).toContain('recalled 4× by 4 distinct queries');
    expect(text.stdout).toContain('Found by 1 distinct query; dreaming needs 3 (minUniqueQueries).');
    const json = await cairnInProcess(['dreaming', 'history', '--json', '--state-dir', oc.stateDir]);
    const h = JSON.parse(json.stdout) as { versions: { kind: string }[] };
    expect(h.versions.some((v) => v.kind === 'dreaming-backup')).toBe(true);
    const reports = await cairnInProcess(['dreaming', 'reports', '--state-dir', oc.stateDir]);
    expect(reports.stdout).toContain('memory/2026-12-04.md#L');
    expect(reports.stdout).toContain('## Light Sleep — written by dreaming');
    expect(oc.tree()).toEqual(before);
  });
});
