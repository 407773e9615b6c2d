/**
 * Writing a file keeps what its owner set on it (issue 29 item 2): a `cairn.json` made 0600
 * because it holds an API key stays 0600 after a settings change, a memory note keeps 0600 or
 * 0640 after a save, a file the assistant's `write`/`edit` tools change keeps its mode, and a
 * new settings file is created owner-only. Real engine, real files.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../../electron/engine/engine';
import { createDirectClient } from '../../electron/engine/rpc/direct';
import { workspaceTools } from '../../electron/engine/chat/tools/workspace';
import type { Tool } from '../../electron/engine/chat/tools/types';
import { writeFileAtomicSync } from '../../electron/engine/util/atomic-write';
import { FakeEmbedder } from '../../testkit/fake-embedder';
import { tmpDir, writeTree } from '../helpers/tmp';

const mode = (f: string) => fs.statSync(f).mode & 0o7777;
const engines: Engine[] = [];
afterEach(async () => {
  while (engines.length) await engines.pop()!.dispose();
});

function start() {
  const stateDir = tmpDir('cairn-mode-');
  const engine = createEngine({ stateDir, deps: { createEmbedder: async () => new FakeEmbedder() } });
  engines.push(engine);
  return { stateDir, api: createDirectClient(engine) };
}

describe('the atomic writer keeps a file mode', () => {
  it('a 0600 cairn.json stays 0600 (and 0640 stays 0640) after config.set; a new one is created 0600', async () => {
    const { stateDir, api } = start();
    const file = path.join(stateDir, 'cairn.json');
    expect(fs.existsSync(file)).toBe(false);
    await api['config.set']({ keyPath: 'agents.defaults.contextPruning.keepLastAssistants', value: 4 });
    // New settings may soon hold an API key: nobody else reads them.
    expect(mode(file)).toBe(0o600);
    for (const m of [0o600, 0o640]) {
      fs.chmodSync(file, m);
      await api['config.set']({ keyPath: 'agents.defaults.contextPruning.keepLastAssistants', value: 5 });
      expect(fs.readFileSync(file, 'utf8')).toContain('keepLastAssistants: 5');
      expect(mode(file)).toBe(m);
    }
  });

  it('a memory note with mode 0600 or 0640 keeps it after memory.write', async () => {
    const { stateDir, api } = start();
    const note = path.join(stateDir, 'workspace', 'memory', '2024-05-08.md');
    writeTree(stateDir, { 'workspace/memory/2024-05-08.md': '# Deploy\n' });
    for (const m of [0o600, 0o640]) {
      fs.chmodSync(note, m);
      const f = await api['memory.read']({ path: 'memory/2024-05-08.md' });
      await api['memory.write']({ path: 'memory/2024-05-08.md', text: `${f.text}- mode ${m.toString(8)}\n`, expectedMtime: f.mtime });
      expect(fs.readFileSync(note, 'utf8')).toContain(`- mode ${m.toString(8)}`);
      expect(mode(note)).toBe(m);
    }
  });

  it('a file the chat tools write or edit keeps its mode', async () => {
    const workspace = writeTree(tmpDir(), { 'MEMORY.md': '# M\n- tea\n', 'notes/a.md': 'one\n' });
    const [, write, edit] = workspaceTools({ workspace, writable: () => true }) as [Tool, Tool, Tool];
    fs.chmodSync(path.join(workspace, 'MEMORY.md'), 0o600);
    fs.chmodSync(path.join(workspace, 'notes/a.md'), 0o640);
    expect((await edit.run({ path: 'MEMORY.md', oldText: '- tea', newText: '- green tea' })).isError).toBeFalsy();
    expect((await write.run({ path: 'notes/a.md', content: 'two\n' })).isError).toBeFalsy();
    expect(fs.readFileSync(path.join(workspace, 'MEMORY.md'), 'utf8')).toContain('green tea');
    expect(mode(path.join(workspace, 'MEMORY.md'))).toBe(0o600);
    expect(mode(path.join(workspace, 'notes/a.md'))).toBe(0o640);
  });

  it.runIf(process.getuid?.() === 0)('as root, a file keeps its owner and group', () => {
    const file = path.join(tmpDir(), 'owned.md');
    fs.writeFileSync(file, 'a\n', { mode: 0o640 });
    fs.chownSync(file, 4321, 4322);
    writeFileAtomicSync(file, 'b\n');
    const st = fs.statSync(file);
    expect([st.uid, st.gid, st.mode & 0o7777]).toEqual([4321, 4322, 0o640]);
    expect(fs.readFileSync(file, 'utf8')).toBe('b\n');
  });
});
