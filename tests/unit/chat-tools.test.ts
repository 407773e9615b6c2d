import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { workspaceTools } from '../../electron/engine/chat/tools/workspace';
import { READ_MAX_CHARS } from '../../electron/engine/util/safe-read';
import { buildSessionStart, dayBefore, START_FILE_MAX_CHARS } from '../../electron/engine/chat/session-start';
import type { Tool, ToolOutput } from '../../electron/engine/chat/tools/types';
import { tmpDir, writeTree } from '../helpers/tmp';

function tools(writable = true) {
  const root = tmpDir();
  const workspace = path.join(root, 'ws');
  writeTree(workspace, { 'MEMORY.md': '# M\n', 'notes/a.md': 'one\ntwo\nthree\nfour\n' });
  writeTree(root, { 'secret.txt': 'top secret' });
  let canWrite = writable;
  const [read, write, edit] = workspaceTools({ workspace, writable: () => canWrite }) as [Tool, Tool, Tool];
  return { root, workspace, read, write, edit, setWritable: (v: boolean) => (canWrite = v) };
}
const text = (o: ToolOutput) => (o.content[0] as { text: string }).text;

describe('workspace tools', () => {
  it('read pages through a file by line and lists a directory', async () => {
    const t = tools();
    expect(text(await t.read.run({ path: 'notes/a.md', offset: 2, limit: 2 }))).toBe('two\nthree');
    expect(text(await t.read.run({ path: 'notes' }))).toBe('notes is a directory:\na.md');
    const miss = await t.read.run({ path: 'nope.md' });
    expect(miss).toMatchObject({ isError: true });
    expect(text(miss)).toMatch(/no such file/);
    expect(text(await t.read.run({ path: 'notes/a.md', offset: 99 }))).toMatch(/past the end \(5 lines\)/);
    fs.writeFileSync(path.join(t.workspace, 'big.txt'), 'x'.repeat(READ_MAX_CHARS + 10));
    expect(text(await t.read.run({ path: 'big.txt' }))).toMatch(/\[Truncated at 50000 chars/);
  });

  it('refuses paths outside the workspace: "..", absolute, and through a symlink', async () => {
    const t = tools();
    for (const p of ['../secret.txt', path.join(t.root, 'secret.txt')]) {
      const r = await t.read.run({ path: p });
      expect(r.isError).toBe(true);
      expect(text(r)).toMatch(/outside the workspace/);
    }
    fs.symlinkSync(t.root, path.join(t.workspace, 'escape'));
    const viaLink = await t.read.run({ path: 'escape/secret.txt' });
    expect(text(viaLink)).toMatch(/leads outside the workspace through a symbolic link/);
    const writeVia = await t.write.run({ path: 'escape/new.txt', content: 'x' });
    expect(writeVia.isError).toBe(true);
    expect(fs.existsSync(path.join(t.root, 'new.txt'))).toBe(false);
  });

  it('write creates and overwrites atomically; edit replaces exactly one occurrence', async () => {
    const t = tools();
    expect(text(await t.write.run({ path: 'memory/2026-11-30.md', content: '- a\n- a\n' }))).toBe('Created memory/2026-11-30.md (8 bytes).');
    expect(text(await t.write.run({ path: 'MEMORY.md', content: '# Memory\n- tea\n' }))).toMatch(/^Overwrote MEMORY\.md/);
    expect(text(await t.edit.run({ path: 'memory/2026-11-30.md', oldText: '- a', newText: '- b' }))).toMatch(/occurs 2 times/);
    expect(text(await t.edit.run({ path: 'MEMORY.md', oldText: 'coffee', newText: 'x' }))).toMatch(/was not found/);
    expect(text(await t.edit.run({ path: 'MEMORY.md', oldText: '- tea', newText: '- green tea' }))).toBe('Edited MEMORY.md at line 2.');
    expect(fs.readFileSync(path.join(t.workspace, 'MEMORY.md'), 'utf8')).toBe('# Memory\n- green tea\n');
    expect(fs.readdirSync(t.workspace).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('write into a folder that is a dangling link answers in words naming the folder, and writes nothing', async () => {
    const t = tools();
    fs.symlinkSync(path.join(t.workspace, 'gone'), path.join(t.workspace, 'drafts'));
    const w = await t.write.run({ path: 'drafts/a.md', content: 'x' });
    expect(w.isError).toBe(true);
    expect(text(w)).toBe('write failed: cannot create the folder drafts: it, or a folder on its path, does not exist (or is a link to a missing place) (ENOENT)');
    expect(fs.existsSync(path.join(t.workspace, 'gone'))).toBe(false);
  });

  it('refuses write and edit while the state dir is read-only, and reports bad arguments', async () => {
    const t = tools(false);
    const w = await t.write.run({ path: 'x.md', content: 'y' });
    expect(w).toMatchObject({ isError: true });
    expect(text(w)).toMatch(/read-only/);
    expect(text(await t.edit.run({ path: 'MEMORY.md', oldText: '#', newText: '!' }))).toMatch(/read-only/);
    expect(fs.readFileSync(path.join(t.workspace, 'MEMORY.md'), 'utf8')).toBe('# M\n');
    t.setWritable(true);
    expect((await t.write.run({ path: 'x.md', content: 'y' })).isError).toBe(false);
    expect(text(await t.write.run({ path: 'x.md' }))).toBe('missing argument "content"');
    expect(text(await t.read.run({ path: 3 }))).toBe('argument "path" must be a string, got number');
    expect(text(await t.read.run({ _invalidJson: '{"path": ' }))).toMatch(/not valid JSON/);
  });
});

describe('session start context', () => {
  it('opens with MEMORY.md and the daily notes of today and yesterday in the user\'s time zone', () => {
    const ws = writeTree(tmpDir(), {
      'MEMORY.md': 'long-term facts',
      'memory/2026-03-01.md': 'today in Tokyo',
      'memory/2026-02-28.md': 'yesterday in Tokyo',
      'memory/2026-02-27.md': 'older',
    });
    // 20:00 UTC on Feb 28 is already Mar 1 in Tokyo.
    const s = buildSessionStart({ workspace: ws, now: new Date('2026-02-28T20:00:00Z'), timeZone: 'Asia/Tokyo', basePrompt: 'BASE' });
    expect(s).toMatchObject({ today: '2026-03-01', yesterday: '2026-02-28' });
    expect(s.system.startsWith('BASE\n\nToday is 2026-03-01.')).toBe(true);
    expect(s.files.map((f) => f.path)).toEqual(['MEMORY.md', 'memory/2026-03-01.md', 'memory/2026-02-28.md']);
    expect(s.system).toContain('# Long-term memory (MEMORY.md)\n\nlong-term facts');
    expect(s.system).not.toContain('older');
  });

  it('caps a huge file and skips a symlinked one', () => {
    const ws = writeTree(tmpDir(), { 'MEMORY.md': 'm'.repeat(START_FILE_MAX_CHARS + 5) });
    fs.mkdirSync(path.join(ws, 'memory'));
    fs.symlinkSync(path.join(ws, 'MEMORY.md'), path.join(ws, 'memory', '2026-01-02.md'));
    const s = buildSessionStart({ workspace: ws, now: new Date('2026-01-02T12:00:00Z'), timeZone: 'UTC' });
    expect(s.files).toEqual([{ path: 'MEMORY.md', label: 'Long-term memory', chars: START_FILE_MAX_CHARS, truncated: true }]);
    expect(s.system).toContain('[…truncated at 20000 chars; read MEMORY.md for the rest]');
    expect(dayBefore('2026-03-01')).toBe('2026-02-28');
    expect(dayBefore('2024-03-01')).toBe('2024-02-29');
  });
});
