/**
 * `cairn qmd` and `cairn search` with `memory.backend: "qmd"`, as real processes, with fake
 * qmd scripts: the status/update command, and a search that falls back to the built-in
 * index with the reason on stderr.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openStateDir } from '../../electron/engine/config/state-dir';
import { runCairn } from '../helpers/cli';
import { fakeQmd, MEMORY_FILES } from '../helpers/qmd-engine';
import { tmpDir, writeTree } from '../helpers/tmp';

function stateWith(command: string): string {
  const dir = tmpDir('cairn-qmdcli-');
  openStateDir(dir);
  writeTree(dir, MEMORY_FILES);
  // Keyword-only fallback: no embedder to convert or load in the child process.
  const config = { agents: { defaults: { memorySearch: { provider: 'none' } } }, memory: { backend: 'qmd', qmd: { command } } };
  fs.writeFileSync(path.join(dir, 'cairn.json'), JSON.stringify(config));
  return dir;
}

describe('cairn qmd / cairn search with the QMD backend', () => {
  it('cairn qmd update repairs and refreshes; cairn qmd --json reports it', { timeout: 60_000 }, async () => {
    const fake = fakeQmd('empty');
    const dir = stateWith(fake.command);
    const up = await runCairn(['qmd', 'update', '--state-dir', dir]);
    expect(up.code).toBe(0);
    expect(up.stdout).toMatch(/^backend: qmd \(command: .*, mode: search\)$/m);
    expect(up.stdout).toMatch(/^ {2}memory-dir {3}memory {3}.*workspace\/memory {2}\*\*\/\*\.md$/m);
    expect(fake.calls()).toContain('update --index cairn');
    const st = await runCairn(['qmd', '--json', '--state-dir', dir]);
    const json = JSON.parse(st.stdout);
    expect(json).toMatchObject({ backend: 'qmd', searchMode: 'search', agent: { agentId: 'main', lastError: null } });
    expect(json.agent.lastUpdate).toMatch(/^\d{4}-\d{2}-\d{2}T/);
  });

  it('cairn search falls back to the built-in index and says why', { timeout: 60_000 }, async () => {
    const fake = fakeQmd('exit');
    const dir = stateWith(fake.command);
    const r = await runCairn(['search', 'Alfama', '--state-dir', dir]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('memory/2026-11-01.md#L');
    expect(r.stderr).toMatch(/warning: QMD search failed \(qmd search exited with 3: boom: index is corrupt\); served by the built-in index/);
    expect(r.stderr).not.toContain('served by QMD');
  });
});
