/**
 * memory.locate (issue 14 item 12): a memory file's absolute path, and in the desktop app
 * (an injected openPath, Electron's shell there) opening it in the editor or its folder;
 * under cairn serve it says why it cannot and gives the path to copy. Paths follow the
 * memory-file rules.
 */
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../../electron/engine/engine';
import { createDirectClient } from '../../electron/engine/rpc/direct';
import { tmpDir, writeTree } from '../helpers/tmp';

const engines: Engine[] = [];
afterEach(async () => {
  while (engines.length) await engines.pop()!.dispose();
});

function start(openPath?: (p: string, how: 'editor' | 'folder') => Promise<void>) {
  const stateDir = writeTree(tmpDir('cairn-locate-'), { 'cairn/state.json': '{}', 'workspace/MEMORY.md': '# M\n', 'workspace/memory/2024-05-08.md': '# Day\n' });
  const engine = createEngine({ stateDir, deps: openPath ? { openPath } : {} });
  engines.push(engine);
  return { stateDir, api: createDirectClient(engine) };
}

describe('memory.locate', () => {
  it('opens a memory file in the editor or its folder through the desktop hook', async () => {
    const calls: [string, string][] = [];
    const { api, stateDir } = start(async (p, how) => void calls.push([p, how]));
    const abs = path.join(stateDir, 'workspace/memory/2024-05-08.md');
    expect(await api['memory.locate']({ path: 'memory/2024-05-08.md', open: 'editor' })).toEqual({ absPath: abs, opened: true });
    expect(await api['memory.locate']({ path: 'memory/2024-05-08.md', open: 'folder' })).toEqual({ absPath: abs, opened: true });
    expect(calls).toEqual([
      [abs, 'editor'],
      [abs, 'folder'],
    ]);
  });

  it('without the desktop hook (cairn serve) gives the path to copy and says why it did not open', async () => {
    const { api, stateDir } = start();
    const res = await api['memory.locate']({ path: 'MEMORY.md', open: 'editor' });
    expect(res).toMatchObject({ absPath: path.join(stateDir, 'workspace/MEMORY.md'), opened: false, reason: expect.stringMatching(/copy the path/) });
  });

  it('refuses paths outside the memory set and missing files', async () => {
    const calls: string[] = [];
    const { api } = start(async (p) => void calls.push(p));
    await expect(api['memory.locate']({ path: '../cairn.json', open: 'editor' })).rejects.toMatchObject({ code: 'forbidden' });
    await expect(api['memory.locate']({ path: 'memory/nope.md', open: 'folder' })).rejects.toMatchObject({ code: 'not_found', message: expect.stringContaining('memory/nope.md') });
    expect(calls).toEqual([]);
  });
});
