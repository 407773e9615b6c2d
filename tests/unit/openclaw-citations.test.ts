/**
 * Issue 12.7: the sessions search source holds compaction summaries, and a session-search
 * citation (`sessions/<id>.jsonl#L<s>-L<e>`) opens with `cairn get` — on s1-alpha as
 * OpenClaw 2026.9.6 wrote it (its only compaction summary is the one place the phrase
 * "marmalade-otter" occurs).
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createEngine } from '../../electron/engine/engine';
import { createDirectClient } from '../../electron/engine/rpc/direct';
import { FakeEmbedder } from '../../testkit/fake-embedder';
import { cairnInProcess, OC2026_LEGACY_DIR, sessionHitFor } from '../helpers/openclaw-2026';
import { tmpDir, writeTree } from '../helpers/tmp';

const cli = cairnInProcess;

describe('OpenClaw session search: summaries and citations', () => {
  it('finds a phrase that only the compaction summary holds, and `cairn get <citation>` prints those lines', async () => {
    const stateDir = tmpDir();
    writeTree(stateDir, {
      'cairn.json': JSON.stringify({ agents: { defaults: { memorySearch: { sources: ['memory', 'sessions'] } } } }),
      'workspace/MEMORY.md': '# Memory\n\n- nothing about otters\n',
    });
    fs.mkdirSync(path.join(stateDir, 'agents/main/sessions'), { recursive: true });
    fs.copyFileSync(path.join(OC2026_LEGACY_DIR, 'agents/main/sessions/s1-alpha.jsonl'), path.join(stateDir, 'agents/main/sessions/s1-alpha.jsonl'));
    const engine = createEngine({ stateDir, deps: { createEmbedder: async () => new FakeEmbedder() } });
    let citation: string;
    try {
      const api = createDirectClient(engine);
      const hit = await sessionHitFor(api, 'marmalade-otter');
      expect(hit.path).toBe('sessions/s1-alpha.jsonl');
      // The summary is one long JSONL line (44), hard-split into chunks: every one cites line 44.
      expect(hit).toMatchObject({ startLine: 44, endLine: 44 });
      citation = hit.citation;
    } finally {
      await engine.dispose();
    }
    expect(citation).toMatch(/^sessions\/s1-alpha\.jsonl#L\d+-L\d+$/);
    const got = await cli(['get', citation, '--state-dir', stateDir]);
    expect(got.stderr).toBe('');
    expect(got.code).toBe(0);
    expect(got.stdout).toMatch(/^L44 Summary: ## Goal .*marmalade-otter/m);
    const json = JSON.parse((await cli(['get', 'sessions/s1-alpha.jsonl#L40-L41', '--state-dir', stateDir, '--json'])).stdout);
    // Line 40 is the error turn (no text), 41 the user's retry: only what the index renders.
    expect(json).toMatchObject({ path: 'sessions/s1-alpha.jsonl', from: 40, to: 41, text: 'L41 User: Retry: another listing please [[exec-big 330]]' });
    // A memory citation opens the same way; a path out of the sessions dir is refused.
    expect((await cli(['get', 'MEMORY.md#L3', '--state-dir', stateDir])).stdout.trim()).toBe('- nothing about otters');
    const bad = await cli(['get', 'sessions/../cairn.json#L1', '--state-dir', stateDir]);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain('not a session transcript');
  });
});
