/**
 * The QMD backend's pure parts: QMD handles → paths, result and collection-list parsing,
 * the collection plan, the command splitter, the backoff, and the session export
 * (line-aligned, redacted, idempotent). No qmd process here.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { handleLookup, parseQmdFile, qmdHandle } from '../../electron/engine/qmd/handles';
import { parseQmdResults, parseSnippet } from '../../electron/engine/qmd/results';
import { parseCollectionList, parseCollectionShow, planCollections, wantedCollections } from '../../electron/engine/qmd/collections';
import { splitCommand } from '../../electron/engine/qmd/run';
import { backoffMs } from '../../electron/engine/qmd/scheduler';
import { exportTranscripts, transcriptMarkdown } from '../../electron/engine/qmd/sessions-export';
import { qmdHome, readHomeState } from '../../electron/engine/qmd/home';
import { transcript } from '../helpers/qmd-engine';
import { tmpDir, writeTree } from '../helpers/tmp';

describe('QMD handles', () => {
  it('mangles names the way QMD does and maps them back to the real path', () => {
    expect(qmdHandle('MEMORY.md')).toBe('MEMORY.md');
    expect(qmdHandle('projects/my_notes.md')).toBe('projects/my-notes.md');
    expect(qmdHandle('a b/v1.2 draft.md')).toBe('a-b/v1-2-draft.md');
    const look = handleLookup(['projects/my_notes.md', '2026-11-01.md']);
    expect(look('projects/my-notes.md')).toBe('projects/my_notes.md');
    expect(look('PROJECTS/MY-NOTES.md')).toBe('projects/my_notes.md');
    expect(look('unknown.md')).toBeUndefined();
  });

  it('parses qmd:// file references', () => {
    expect(parseQmdFile('qmd://memory-dir/projects/my-notes.md?index=cairn')).toEqual({ collection: 'memory-dir', handle: 'projects/my-notes.md' });
    expect(parseQmdFile('sessions/abc.md')).toEqual({ collection: 'sessions', handle: 'abc.md' });
    expect(parseQmdFile('qmd://nohandle')).toBeNull();
  });
});

describe('QMD search output', () => {
  const resolve = (collection: string, handle: string) =>
    collection === 'memory-dir' ? { path: `memory/${handle}`, source: 'memory' as const } : null;

  it('reads the line range from the snippet header, trimming blank edge lines', () => {
    expect(parseSnippet('@@ -4,4 @@ (3 before, 0 after)\n\nBooked a flight.\nHotel.\n', 5)).toEqual({ startLine: 5, endLine: 6, text: 'Booked a flight.\nHotel.' });
    expect(parseSnippet('no header here', 7)).toEqual({ startLine: 7, endLine: 7, text: 'no header here' });
  });

  it('maps results to Cairn shape, clips snippets to 700 chars and drops unknown collections', () => {
    const long = 'x'.repeat(900);
    const out = parseQmdResults(
      JSON.stringify([
        { docid: '#1', score: 0.82, file: 'qmd://memory-dir/2026-11-01.md?index=cairn', line: 5, snippet: '@@ -5,2 @@ (4 before, 0 after)\nBooked.\nHotel.' },
        { score: 0.5, file: 'qmd://memory-dir/long.md', line: 1, snippet: `@@ -1,1 @@ (0 before, 0 after)\n${long}` },
        { score: 0.4, file: 'qmd://elsewhere/x.md', line: 1, snippet: 'x' },
      ]),
      resolve,
      { mode: 'search' },
    );
    expect(out).toHaveLength(2);
    expect(out[0]).toEqual({ path: 'memory/2026-11-01.md', startLine: 5, endLine: 6, score: 0.82, snippet: 'Booked.\nHotel.', source: 'memory', citation: 'memory/2026-11-01.md#L5-L6' });
    expect(out[1]!.snippet).toHaveLength(700);
  });

  it('tolerates a notice line before the JSON array and rejects garbage', () => {
    expect(parseQmdResults('Note: index was updated\n[]', resolve, { mode: 'search' })).toEqual([]);
    expect(() => parseQmdResults('not json', resolve, { mode: 'search' })).toThrow(/not JSON/);
    expect(() => parseQmdResults('', resolve, { mode: 'search' })).toThrow(/not JSON/);
    expect(() => parseQmdResults('{"results": []}', resolve, { mode: 'search' })).toThrow(/not a result list/);
    expect(() => parseQmdResults('[{"score": 1}]', resolve, { mode: 'search' })).toThrow(/without a file/);
  });
});

describe('QMD collections', () => {
  it('reads both the JSON and the text form of `collection list`', () => {
    expect(parseCollectionList('[{"name":"memory-dir","path":"/w/memory","pattern":"**/*.md"}]')).toEqual([{ name: 'memory-dir', path: '/w/memory', pattern: '**/*.md' }]);
    const text = 'Collections (2):\n\nmemory-root (qmd://memory-root/)\n  Pattern:  {MEMORY,memory}.md\n  Files:    1\n\nold (qmd://old/)\n  Pattern:  *.md\n';
    expect(parseCollectionList(text)).toEqual([
      { name: 'memory-root', pattern: '{MEMORY,memory}.md' },
      { name: 'old', pattern: '*.md' },
    ]);
    expect(parseCollectionList("No collections found. Run 'qmd collection add .' to create one.")).toEqual([]);
    expect(parseCollectionShow('x', 'Collection: x\n  Path:     /a/b\n  Pattern:  *.md\n')).toEqual({ name: 'x', path: '/a/b', pattern: '*.md' });
  });

  it('wants MEMORY.md, memory/, extra paths and (opt-in) sessions, and plans the repair', () => {
    const root = tmpDir('cairn-qmdcol-');
    const ws = path.join(root, 'workspace');
    writeTree(ws, { 'MEMORY.md': 'm', 'memory/a.md': 'a', 'notes/b.md': 'b' });
    writeTree(root, { 'outside/one.md': 'o' });
    const wanted = wantedCollections({ workspace: ws, extraPaths: ['notes', '../outside/one.md', 'missing'], includeDefaultMemory: true, sessionsEnabled: true, sessionsExportDir: path.join(root, 'export') });
    expect(wanted.map((w) => [w.name, w.pattern])).toEqual([
      ['memory-root', '{MEMORY,memory}.md'],
      ['memory-dir', '**/*.md'],
      ['extra-1', '**/*.md'],
      ['extra-2', 'one.md'],
      ['sessions', '*.md'],
    ]);
    expect(wanted[2]!.display('b.md')).toBe('notes/b.md');
    expect(wanted[3]!.display('one.md')).toBe(path.join(root, 'outside', 'one.md'));
    expect(wanted[4]!.display('s1.md')).toBe('sessions/s1.jsonl');
    const plan = planCollections(wanted.slice(0, 2), [
      { name: 'memory-root', path: ws, pattern: '{MEMORY,memory}.md' },
      { name: 'memory-dir', path: '/somewhere/else', pattern: '**/*.md' },
      { name: 'stray', pattern: '*.md' },
    ]);
    expect(plan.remove).toEqual(['stray', 'memory-dir']);
    expect(plan.add.map((w) => w.name)).toEqual(['memory-dir']);
    expect(wantedCollections({ workspace: ws, extraPaths: [], includeDefaultMemory: false, sessionsEnabled: false, sessionsExportDir: root })).toEqual([]);
  });
});

describe('QMD plumbing', () => {
  it('splits the configured command (a path with spaces stays whole when it exists)', () => {
    expect(splitCommand('qmd', () => false)).toEqual(['qmd']);
    expect(splitCommand('node "/opt/my qmd/qmd.js"', () => false)).toEqual(['node', '/opt/my qmd/qmd.js']);
    expect(splitCommand('/Applications/My Tools/qmd', (p) => p === '/Applications/My Tools/qmd')).toEqual(['/Applications/My Tools/qmd']);
    expect(splitCommand('   ', () => false)).toEqual([]);
  });

  it('backs off exponentially, capped at ten minutes', () => {
    expect([0, 1, 2, 3, 4].map(backoffMs)).toEqual([0, 5_000, 10_000, 20_000, 40_000]);
    expect(backoffMs(30)).toBe(600_000);
  });
});

describe('session export', () => {
  it('renders user/assistant text line-aligned with the JSONL, redacted, without tools or thinking', () => {
    const md = transcriptMarkdown('s-lisbon', transcript()).split('\n');
    expect(md[0]).toBe('# Session s-lisbon (2026-11-02)');
    expect(md[1]).toBe('User: Please remember the gate code 4471 for the flat in Lisbon.');
    expect(md[2]).toBe('Assistant: Noted: the gate code is 4471.');
    expect(md[3]).toBe('');
    expect(md[4]).toMatch(/^User: Also my key is \[REDACTED\]/);
    expect(md.join('\n')).not.toMatch(/zebra|platypus|sk-abcdef/);
  });

  it('is idempotent, rewrites only changed transcripts and removes exports of deleted ones', () => {
    const root = tmpDir('cairn-qmdexp-');
    const sessions = path.join(root, 'sessions');
    writeTree(sessions, { 's1.jsonl': transcript(), 's2.jsonl': transcript(), 's1.checkpoint.abc.jsonl': transcript() });
    const home = qmdHome(root, 'main');
    expect(exportTranscripts(sessions, home)).toEqual({ written: 2, removed: 0, unchanged: 0 });
    expect(fs.readdirSync(home.sessionsDir).sort()).toEqual(['s1.md', 's2.md']);
    expect(exportTranscripts(sessions, home)).toEqual({ written: 0, removed: 0, unchanged: 2 });
    expect(Object.keys(readHomeState(home).exported ?? {})).toEqual(['s1.jsonl', 's2.jsonl']);
    fs.appendFileSync(path.join(sessions, 's1.jsonl'), '{"type":"custom","customType":"x","data":{}}\n');
    // Changed on disk but not in text: stat differs, the file is compared and left alone.
    expect(exportTranscripts(sessions, home)).toEqual({ written: 0, removed: 0, unchanged: 2 });
    fs.rmSync(path.join(sessions, 's2.jsonl'));
    expect(exportTranscripts(sessions, home)).toEqual({ written: 0, removed: 1, unchanged: 1 });
    expect(fs.readdirSync(home.sessionsDir)).toEqual(['s1.md']);
  });
});
