import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { memoryGet, resolveMemoryPath } from '../../electron/engine/index/memory-paths';
import { listMemoryFiles, writeMemoryFile } from '../../electron/engine/index/memory-files';
import { tmpDir, writeTree } from '../helpers/tmp';

function setup() {
  const root = writeTree(tmpDir(), {
    'workspace/MEMORY.md': 'line 1\nline 2\nline 3\nline 4\n',
    'workspace/memory/2024-05-08.md': '# Day\nnotes\n',
    'workspace/memory/ideas.md': 'ideas\n',
    'workspace/memory/data.json': '{}',
    'workspace/secrets.md': 'not in the memory set\n',
    'workspace/docs/runbook.md': 'runbook\n',
    'outside/private.md': 'private\n',
  });
  const workspace = path.join(root, 'workspace');
  return { root, workspace, roots: { workspace, extraPaths: ['docs'] } };
}

describe('memory_get path rules', () => {
  it('reads MEMORY.md, daily notes, other notes and extra paths, whole or by lines', () => {
    const { roots } = setup();
    expect(memoryGet(roots, 'MEMORY.md')).toEqual({ path: 'MEMORY.md', text: 'line 1\nline 2\nline 3\nline 4\n' });
    expect(memoryGet(roots, 'MEMORY.md', 2, 2)).toEqual({ path: 'MEMORY.md', text: 'line 2\nline 3' });
    expect(memoryGet(roots, 'MEMORY.md', 3).text).toBe('line 3\nline 4\n');
    expect(memoryGet(roots, './memory/2024-05-08.md').path).toBe('memory/2024-05-08.md');
    expect(memoryGet(roots, 'docs/runbook.md').text).toBe('runbook\n');
  });

  it('refuses ".."', () => {
    const { roots } = setup();
    expect(() => memoryGet(roots, '../outside/private.md')).toThrow(/refused: "\.\." is not allowed/);
    expect(() => memoryGet(roots, 'memory/../../outside/private.md')).toThrow(/"\.\."/);
    expect(() => memoryGet(roots, 'memory\\..\\..\\outside\\private.md')).toThrow(/"\.\."/);
  });

  it('refuses absolute paths (outside the configured extra paths)', () => {
    const { roots, root, workspace } = setup();
    expect(() => memoryGet(roots, path.join(root, 'outside/private.md'))).toThrow(/absolute paths are not allowed/);
    expect(() => memoryGet(roots, path.join(workspace, 'MEMORY.md'))).toThrow(/absolute paths are not allowed/);
    expect(() => memoryGet(roots, 'C:\\Users\\x\\MEMORY.md')).toThrow(/absolute paths are not allowed/);
  });

  it('refuses non-.md files', () => {
    const { roots } = setup();
    expect(() => memoryGet(roots, 'memory/data.json')).toThrow(/only Markdown \(\.md\)/);
    expect(() => memoryGet(roots, 'memory/2024-05-08.md.bak')).toThrow(/only Markdown/);
  });

  it('refuses Markdown files outside the memory set', () => {
    const { roots } = setup();
    expect(() => memoryGet(roots, 'secrets.md')).toThrow(/not a memory file/);
  });

  it('refuses symlinks: the file itself or a directory on the way', () => {
    const { roots, root, workspace } = setup();
    fs.symlinkSync(path.join(root, 'outside/private.md'), path.join(workspace, 'memory/link.md'));
    fs.symlinkSync(path.join(root, 'outside'), path.join(workspace, 'memory/linked'));
    expect(() => memoryGet(roots, 'memory/link.md')).toThrow(/memory\/link\.md is a symlink/);
    expect(() => memoryGet(roots, 'memory/linked/private.md')).toThrow(/memory\/linked is a symlink/);
  });

  it('says when a file does not exist, and when a line is past the end', () => {
    const { roots } = setup();
    expect(() => memoryGet(roots, 'memory/2020-01-01.md')).toThrow(/no such memory file/);
    expect(() => memoryGet(roots, 'MEMORY.md', 99)).toThrow(/past the end \(the file has 5 lines\)/);
    // toThrow with an object matches the error's own fields: a call that does not throw fails.
    expect(() => memoryGet(roots, 'memory/nope.md')).toThrow(expect.objectContaining({ code: 'not_found' }));
    expect(() => resolveMemoryPath(roots, '../x.md')).toThrow(expect.objectContaining({ code: 'forbidden' }));
  });
});

describe('memory browser files', () => {
  it('lists MEMORY.md, then daily notes newest first with dates, then notes and extra paths', async () => {
    const { roots, workspace } = setup();
    writeTree(workspace, { 'memory/2024-06-01.md': 'x\n' });
    const files = await listMemoryFiles(roots);
    expect(files.map((f) => [f.path, f.kind, f.date])).toEqual([
      ['MEMORY.md', 'long-term', null],
      ['memory/2024-06-01.md', 'daily', '2024-06-01'],
      ['memory/2024-05-08.md', 'daily', '2024-05-08'],
      ['memory/ideas.md', 'note', null],
      ['docs/runbook.md', 'extra', null],
    ]);
    expect(files[0]!.size).toBe(28);
    expect(files[0]!.mtime).toBeGreaterThan(0);
  });

  it('writes atomically and refuses to overwrite a file changed on disk since it was loaded', () => {
    const { roots, workspace } = setup();
    const first = writeMemoryFile(roots, 'memory/new/2024-07-01.md', 'hello\n');
    expect(fs.readFileSync(path.join(workspace, 'memory/new/2024-07-01.md'), 'utf8')).toBe('hello\n');
    const second = writeMemoryFile(roots, 'memory/new/2024-07-01.md', 'hello again\n', first.mtime);
    expect(second.text).toBe('hello again\n');
    fs.writeFileSync(path.join(workspace, 'memory/new/2024-07-01.md'), 'edited elsewhere\n');
    fs.utimesSync(path.join(workspace, 'memory/new/2024-07-01.md'), new Date(), new Date(second.mtime + 10_000));
    expect(() => writeMemoryFile(roots, 'memory/new/2024-07-01.md', 'mine\n', second.mtime)).toThrow(/changed on disk/);
    expect(fs.readFileSync(path.join(workspace, 'memory/new/2024-07-01.md'), 'utf8')).toBe('edited elsewhere\n');
    expect(() => writeMemoryFile(roots, '../evil.md', 'x')).toThrow(/"\.\."/);
    expect(() => writeMemoryFile(roots, 'memory/x.txt', 'x')).toThrow(/only Markdown/);
    expect(fs.readdirSync(path.join(workspace, 'memory/new')).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });
});
