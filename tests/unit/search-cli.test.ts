/** `cairn index`, `cairn search`, `cairn get`: output shapes, flags, refusals and exit codes. */
import { describe, expect, it } from 'vitest';
import { runCli } from '../../electron/cli/main';
import { createRuntime } from '../../electron/cli/runtime';
import { parseGetSpec } from '../../electron/cli/commands/get';
import { FakeEmbedder } from '../../testkit/fake-embedder';
import { runCairn } from '../helpers/cli';
import { tmpDir, writeTree } from '../helpers/tmp';

function stateDir(config: object = {}): string {
  const dir = tmpDir('cairn-cli-');
  return writeTree(dir, {
    'cairn.json': JSON.stringify(config),
    'workspace/MEMORY.md': '# Preferences\n\nPrefers dark mode and vim.\n',
    'workspace/memory/2024-05-08.md': '# Deploy\n\nDeployed commit a1b2c3d.\nLine five.\n',
    'workspace/memory/2024-06-01.md': '# Trip\n\nBooked the kayak trip.\n',
  });
}

/** Run the CLI in-process with the deterministic embedder; collects stdout/stderr. */
async function cli(args: string[]) {
  let stdout = '';
  let stderr = '';
  const rt = createRuntime({ stdout: (s) => (stdout += s), stderr: (s) => (stderr += s), isTTY: false, deps: { createEmbedder: async () => new FakeEmbedder() } });
  const code = await runCli(args, rt);
  return { code, stdout, stderr };
}

describe('cairn index', () => {
  it('--json prints {files, chunks, embedded, durationMs, mode, unreadable}', async () => {
    const dir = stateDir();
    const r = await cli(['index', '--state-dir', dir, '--json']);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(Object.keys(out).sort()).toEqual(['chunks', 'durationMs', 'embedded', 'files', 'mode', 'unreadable']);
    expect(out.unreadable).toEqual([]);
    expect(out).toMatchObject({ files: 3, chunks: 3, embedded: 3, mode: 'hybrid' });
    const again = JSON.parse((await cli(['index', '--state-dir', dir, '--json', '--force'])).stdout);
    expect(again).toMatchObject({ files: 3, embedded: 0 }); // cache hits
  });

  it('prints a one-line summary without --json', async () => {
    const r = await cli(['index', '--state-dir', stateDir()]);
    expect(r.stdout).toMatch(/rebuilt 3 files, 3 chunks \(3 embedded\) in \d+ ms — hybrid, fake\/bag-of-words-v1, vectors: vec0/);
  });
});

describe('cairn search', () => {
  it('--json has exactly the documented shape and syncs first', async () => {
    const dir = stateDir();
    const r = await cli(['search', 'a1b2c3d', '--state-dir', dir, '--json']);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(Object.keys(out).sort()).toEqual(['embedder', 'mode', 'results', 'warnings']);
    expect(out.mode).toBe('hybrid');
    expect(out.embedder).toEqual({ provider: 'fake', model: 'bag-of-words-v1' });
    // Today's fields, and beside them the lines that answer (issue 37) with their numbers and scores.
    expect(Object.keys(out.results[0]).sort()).toEqual(['citation', 'day', 'endLine', 'excerpt', 'lines', 'path', 'score', 'snippet', 'source', 'startLine']);
    expect(out.results[0].lines).toEqual([{ line: 3, text: 'Deployed commit a1b2c3d.', score: 1, role: 'match' }]);
    expect(out.results[0]).toMatchObject({ excerpt: 'Deployed commit a1b2c3d.', day: '2024-05-08' });
    expect(out.results[0]).toMatchObject({ path: 'memory/2024-05-08.md', startLine: 3, endLine: 4, source: 'memory', citation: 'memory/2024-05-08.md#L3-L4' }); // the '# Deploy' heading and blank line are not cited
  });

  it('--explain adds every stage score; -n, --since, --before and --source filter', async () => {
    const dir = stateDir();
    const ex = JSON.parse((await cli(['search', 'kayak trip', '--state-dir', dir, '--json', '--explain'])).stdout);
    expect(Object.keys(ex.results[0].explain).sort()).toEqual(['decay', 'merged', 'mmrRank', 'text', 'vector']);
    const n1 = JSON.parse((await cli(['search', 'dark mode deploy kayak', '--state-dir', dir, '--json', '-n', '1', '--min-score', '0'])).stdout);
    expect(n1.results).toHaveLength(1);
    const since = JSON.parse((await cli(['search', 'deploy kayak', '--state-dir', dir, '--json', '--min-score', '0', '--since', '2024-05-09', '--before', '2024-07-01'])).stdout);
    expect(since.results.map((x: { path: string }) => x.path)).toEqual(['memory/2024-06-01.md']);
    const sessions = JSON.parse((await cli(['search', 'kayak', '--state-dir', dir, '--json', '--source', 'sessions'])).stdout);
    expect(sessions.results).toEqual([]);
    expect(sessions.warnings.join(' ')).toMatch(/sessions source is off/);
  });

  it('prints citations, snippets and the explain line for people', async () => {
    const r = await cli(['search', 'kayak', '--state-dir', stateDir(), '--explain']);
    expect(r.stdout).toMatch(/^1\. memory\/2024-06-01\.md#L3-L3 {2}score \d\.\d{3}/);
    expect(r.stdout).toContain('   L3: Booked the kayak trip.');
    expect(r.stdout).toMatch(/↳ vector \d\.\d{3} · text \d\.\d{3} · merged \d\.\d{3} · decay 1\.000/);
    expect(r.stderr).toMatch(/hybrid · fake\/bag-of-words-v1 · [\d.]+ ms\)/);
  });

  it('exits 2 with a clear message on bad flags', async () => {
    const dir = stateDir();
    const bad = [
      [['-n', 'lots'], /-n:/],
      [['--min-score', '2'], /--min-score:/],
      [['--source', 'web'], /--source:/],
      [['--since', '05/08/2024'], /--since: a date YYYY-MM-DD/],
    ] as const;
    for (const [flags, msg] of bad) {
      const r = await cli(['search', 'x', '--state-dir', dir, ...flags]);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(msg);
    }
  });
});

describe('cairn get', () => {
  it('prints a file or a line range; --json gives {path, text}', async () => {
    const dir = stateDir();
    expect((await cli(['get', 'MEMORY.md', '--state-dir', dir])).stdout).toBe('# Preferences\n\nPrefers dark mode and vim.\n');
    const j = JSON.parse((await cli(['get', 'memory/2024-05-08.md:3:2', '--state-dir', dir, '--json'])).stdout);
    expect(j).toEqual({ path: 'memory/2024-05-08.md', text: 'Deployed commit a1b2c3d.\nLine five.' });
    expect(parseGetSpec('memory/x.md:10')).toEqual({ path: 'memory/x.md', from: 10 });
  });

  it('refuses what memory_get refuses, with exit code 1', async () => {
    const dir = stateDir();
    for (const [p, msg] of [
      ['../cairn.json', /"\.\." is not allowed/],
      ['/etc/hosts.md', /absolute paths are not allowed/],
      ['memory/notes.txt', /only Markdown/],
      ['memory/missing.md', /no such memory file/],
    ] as const) {
      const r = await cli(['get', p, '--state-dir', dir]);
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(msg);
    }
  });
});

describe('the cairn executable', () => {
  it('indexes and searches in a real process (FTS-only: no embedder configured)', async () => {
    const dir = stateDir({ agents: { defaults: { memorySearch: { provider: 'none' } } } });
    const idx = await runCairn(['index', '--state-dir', dir, '--json']);
    expect(idx.code).toBe(0);
    expect(JSON.parse(idx.stdout)).toMatchObject({ files: 3, chunks: 3 });
    const r = await runCairn(['search', 'kayak', '--state-dir', dir, '--json']);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.results[0].path).toBe('memory/2024-06-01.md');
    expect(out).toMatchObject({ mode: 'fts-only', embedder: null, warnings: [] });
  });
});
