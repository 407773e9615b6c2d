/**
 * Listing the files to index (index/sources.ts): memory files, extraPaths and transcripts,
 * sorted, symlinks and dot-directories skipped — and QMD's collections (qmd/collections.ts)
 * hold the same Markdown files, through the one walker (util/markdown-walk.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { displayPath, listSourceFiles, type SourceRoots } from '../../electron/engine/index/sources';
import { wantedCollections } from '../../electron/engine/qmd/collections';
import { tmpDir, writeTree } from '../helpers/tmp';

function tree(): { root: string; roots: SourceRoots } {
  const root = tmpDir('cairn-sources-');
  writeTree(root, {
    'workspace/MEMORY.md': '# Long-term\n',
    'workspace/memory/2024-05-08.md': 'daily\n',
    'workspace/memory/projects/garden.md': 'garden\n',
    'workspace/memory/projects/notes.txt': 'not markdown\n',
    'workspace/memory/.obsidian/cache.md': 'dot dir\n',
    'workspace/notes-outside.md': 'not a memory file\n',
    'workspace/extra/a.md': 'extra dir file\n',
    'workspace/extra/deep/b.md': 'extra deep\n',
    'elsewhere/c.md': 'outside the workspace\n',
    'secret/s.md': 'only reachable through a symlink\n',
    'agents/main/sessions/s1.jsonl': '{}\n',
    'agents/main/sessions/s1.checkpoint.1.jsonl': '{}\n',
    'agents/main/sessions/readme.txt': 'no\n',
  });
  const ws = path.join(root, 'workspace');
  fs.symlinkSync(path.join(root, 'secret'), path.join(ws, 'memory', 'linked-dir'));
  fs.symlinkSync(path.join(root, 'secret', 's.md'), path.join(ws, 'memory', 'linked.md'));
  fs.symlinkSync(path.join(root, 'secret'), path.join(ws, 'extra-link'));
  return {
    root,
    roots: {
      workspace: ws,
      sessionsDir: path.join(root, 'agents', 'main', 'sessions'),
      extraPaths: ['extra', path.join(root, 'elsewhere', 'c.md'), 'extra-link', 'missing-dir'],
      sources: ['memory', 'sessions'],
    },
  };
}

describe('source listing', () => {
  it('lists every memory, extra-path and session file once, sorted by shown path', async () => {
    const { root, roots } = tree();
    const sync = await listSourceFiles(roots);
    expect(sync.map((f) => f.path)).toEqual([
      path.join(root, 'elsewhere', 'c.md').split(path.sep).join('/'),
      'MEMORY.md',
      'extra/a.md',
      'extra/deep/b.md',
      'memory/2024-05-08.md',
      'memory/projects/garden.md',
      'sessions/s1.jsonl',
    ]);
    expect(sync.find((f) => f.path === 'sessions/s1.jsonl')?.source).toBe('sessions');
  });

  it('QMD\'s collections hold exactly the memory files the built-in index lists', async () => {
    const { roots } = tree();
    const wanted = wantedCollections({ workspace: roots.workspace, extraPaths: roots.extraPaths, includeDefaultMemory: true, sessionsEnabled: false, sessionsExportDir: '' });
    const viaQmd: string[] = [];
    for (const w of wanted) for (const rel of await w.files()) viaQmd.push(w.display(rel));
    const viaIndex = (await listSourceFiles({ ...roots, sources: ['memory'] })).map((f) => f.path);
    expect(viaQmd.sort()).toEqual(viaIndex);
    expect(viaIndex).toContain('memory/projects/garden.md');
  });

  it('skips symlinked files and directories, and dot-directories', async () => {
    const { roots } = tree();
    const paths = (await listSourceFiles(roots)).map((f) => f.path);
    expect(paths.some((p) => p.includes('linked') || p.includes('s.md') || p.includes('.obsidian'))).toBe(false);
  });

  it('lists only the enabled sources, and nothing for a missing workspace', async () => {
    const { roots } = tree();
    const memoryOnly = await listSourceFiles({ ...roots, sources: ['memory'] });
    expect(memoryOnly.every((f) => f.source === 'memory')).toBe(true);
    const sessionsOnly = await listSourceFiles({ ...roots, sources: ['sessions'] });
    expect(sessionsOnly.map((f) => f.path)).toEqual(['sessions/s1.jsonl']);
    const none = await listSourceFiles({ workspace: path.join(roots.workspace, 'nope'), sessionsDir: '/nonexistent', extraPaths: [], sources: ['memory', 'sessions'] });
    expect(none).toEqual([]);
  });

  it('a cancelled listing stops with an AbortError', async () => {
    const { root, roots } = tree();
    const many: Record<string, string> = {};
    for (let i = 0; i < 1200; i++) many[`workspace/memory/bulk/n${i}.md`] = 'x\n';
    writeTree(root, many);
    const ac = new AbortController();
    ac.abort();
    await expect(listSourceFiles(roots, ac.signal)).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('shows workspace files relative to the workspace (with or without a trailing slash), others absolute', () => {
    expect(displayPath('/w/ws', '/w/ws/memory/a.md')).toBe('memory/a.md');
    expect(displayPath('/w/ws/', '/w/ws/memory/a.md')).toBe('memory/a.md');
    expect(displayPath('/w/ws', '/w/ws2/a.md')).toBe('/w/ws2/a.md');
    expect(displayPath('/w/ws', '/w/other/a.md')).toBe('/w/other/a.md');
    expect(displayPath('/w/ws', '/w/ws/notes..old.md')).toBe('notes..old.md');
  });
});
