/**
 * One "path inside this folder" rule (issue 29 item 6), electron/engine/util/path-inside.ts,
 * used by all five places that confine a path: a symlink that leads out of the workspace is
 * refused by the chat tools, the memory flush's tools, the memory path rules, the index
 * listing and the watcher; a name that only starts with two dots is inside. And `npm run
 * lint` refuses a second hand-written copy (the ESLint rule, run on planted code).
 */
import fs from 'node:fs';
import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';
import { workspaceTools } from '../../electron/engine/chat/tools/workspace';
import type { Tool, ToolOutput } from '../../electron/engine/chat/tools/types';
import { flushToolRunner } from '../../electron/engine/compaction/flush-tools';
import { MemoryPathError, resolveMemoryPath } from '../../electron/engine/index/memory-paths';
import { listSourceFiles } from '../../electron/engine/index/sources';
import { watchMemory } from '../../electron/engine/index/watcher';
import { isInside, relativeInside, resolveInside } from '../../electron/engine/util/path-inside';
import { tmpDir, writeTree } from '../helpers/tmp';

const ROOT = path.resolve(__dirname, '..', '..');
const text = (o: ToolOutput) => (o.content[0] as { text: string }).text;

/** A workspace with a secret next to it, a symlinked folder and a symlinked note leading to it. */
function escapeTree() {
  const root = tmpDir();
  const workspace = writeTree(path.join(root, 'ws'), { 'MEMORY.md': '# M\n', 'memory/2024-05-08.md': '# real\n' });
  const outside = writeTree(path.join(root, 'outside'), { 'secret.md': 'top secret\n' });
  fs.symlinkSync(outside, path.join(workspace, 'memory', 'out'));
  fs.symlinkSync(path.join(outside, 'secret.md'), path.join(workspace, 'memory', 'linked.md'));
  return { root, workspace, outside };
}

describe('the one path-inside rule', () => {
  it('is lexical, symlink-aware, and takes "..notes.md" for a name, not a way out', () => {
    const t = escapeTree();
    expect(isInside(t.workspace, path.join(t.workspace, '..notes.md'))).toBe(true);
    expect(relativeInside(t.workspace, path.join(t.workspace, 'a', '..', '..', 'x'))).toBeUndefined();
    expect(resolveInside(t.workspace, 'memory/out/secret.md')).toEqual({ ok: false, why: 'symlink-escape' });
    expect(resolveInside(t.workspace, '../outside/secret.md')).toEqual({ ok: false, why: 'outside' });
    expect(resolveInside(t.workspace, 'memory/new.md')).toMatchObject({ ok: true, rel: 'memory/new.md' });
  });

  it('the chat tools refuse a symlink out and accept a file named "..notes.md"', async () => {
    const t = escapeTree();
    const [read, write] = workspaceTools({ workspace: t.workspace, writable: () => true }) as [Tool, Tool, Tool];
    expect(text(await read.run({ path: 'memory/out/secret.md' }))).toMatch(/leads outside the workspace through a symbolic link/);
    expect(text(await read.run({ path: 'memory/linked.md' }))).toMatch(/leads outside the workspace through a symbolic link/);
    const named = await write.run({ path: '..notes.md', content: 'x\n' });
    expect(text(named)).toMatch(/^Created \.\.notes\.md/);
    expect(fs.readFileSync(path.join(t.workspace, '..notes.md'), 'utf8')).toBe('x\n');
  });

  it("the memory flush's tools refuse a symlink out, and never append through a dangling link", () => {
    const t = escapeTree();
    const tools = flushToolRunner(t.workspace, '2024-06-01');
    expect(tools.run('read', { path: 'memory/out/secret.md' })).toMatchObject({ isError: true });
    expect(tools.run('read', { path: 'memory/linked.md' })).toMatchObject({ isError: true });
    // Today's note is a dangling link to a file outside: appending would create that file.
    const target = path.join(t.outside, 'planted.md');
    fs.symlinkSync(target, path.join(t.workspace, 'memory', '2024-06-01.md'));
    expect(tools.run('write', { path: 'memory/2024-06-01.md', content: '- note\n' })).toMatchObject({ isError: true, text: expect.stringMatching(/symbolic link/) });
    expect(fs.existsSync(target)).toBe(false);
  });

  it('the memory path rules refuse a symlinked folder or note', () => {
    const t = escapeTree();
    const roots = { workspace: t.workspace, extraPaths: [] };
    for (const p of ['memory/out/secret.md', 'memory/linked.md']) {
      expect(() => resolveMemoryPath(roots, p)).toThrow(MemoryPathError);
      expect(() => resolveMemoryPath(roots, p)).toThrow(/is a symlink/);
    }
  });

  it('the index lists no file behind a symlink', async () => {
    const t = escapeTree();
    const files = await listSourceFiles({ workspace: t.workspace, sessionsDir: path.join(t.root, 'sessions'), extraPaths: [], sources: ['memory'] });
    expect(files.map((f) => f.path)).toEqual(['MEMORY.md', 'memory/2024-05-08.md']);
  });

  it('the watcher reports a note written in the memory folder, not one written behind a symlink', async () => {
    const t = escapeTree();
    const batches: string[][] = [];
    let onBatch: () => void = () => {};
    const w = await watchMemory({ workspace: t.workspace, sessionsDir: path.join(t.root, 'sessions'), extraPaths: [], sources: ['memory'] }, 50, (paths) => {
      batches.push(paths);
      onBatch();
    });
    try {
      await w.ready;
      const got = new Promise<void>((resolve) => (onBatch = resolve));
      fs.writeFileSync(path.join(t.outside, 'sneaky.md'), 'outside\n');
      fs.writeFileSync(path.join(t.workspace, 'memory', '2024-06-02.md'), '# inside\n');
      await got;
      expect(batches.flat()).toEqual(['memory/2024-06-02.md']);
    } finally {
      await w.dispose();
    }
  });

  it('the watcher still watches a workspace that is itself a symlink (the user chose that folder)', async () => {
    const root = tmpDir();
    const real = writeTree(path.join(root, 'real-ws'), { 'MEMORY.md': '# M\n', 'memory/2024-05-08.md': '# a\n' });
    const workspace = path.join(root, 'ws-link');
    fs.symlinkSync(real, workspace);
    let onBatch: (paths: string[]) => void = () => {};
    const w = await watchMemory({ workspace, sessionsDir: path.join(root, 'sessions'), extraPaths: [], sources: ['memory'] }, 50, (paths) => onBatch(paths));
    try {
      await w.ready;
      const got = new Promise<string[]>((resolve) => (onBatch = resolve));
      fs.writeFileSync(path.join(real, 'memory', '2024-06-03.md'), '# through the link\n');
      expect(await got).toEqual(['memory/2024-06-03.md']);
    } finally {
      await w.dispose();
    }
  });

  it('npm run lint refuses a second, hand-written copy of the rule', { timeout: 60_000 }, async () => {
    const eslint = new ESLint({ cwd: ROOT });
    const copies = [
      "import path from 'node:path';\nexport const inside = (root: string, p: string) => !path.relative(root, p).startsWith('..');\n",
      "import path from 'node:path';\nexport const inside = (root: string, p: string) => p.startsWith(root + path.sep);\n",
      "export const out = (rel: string) => rel === '..';\n",
    ];
    for (const code of copies) {
      const [res] = await eslint.lintText(code, { filePath: path.join(ROOT, 'electron/engine/index/new-module.ts') });
      expect(res?.messages.map((m) => m.message)).toEqual([expect.stringContaining('electron/engine/util/path-inside.ts')]);
    }
    // The one module itself is allowed its implementation.
    const [own] = await eslint.lintFiles([path.join(ROOT, 'electron/engine/util/path-inside.ts')]);
    expect(own?.errorCount).toBe(0);
  });
});
