/**
 * OpenClaw 2026.9's entry annotations (`<!-- trigger: … -->`, `<!-- importance: N -->`,
 * `<!-- project: … -->`) on search results and as search filters, and USER.md as a memory
 * file: listed, read and found by search. Real SQLite, real files, a deterministic embedder.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../../electron/engine/engine';
import { createDirectClient } from '../../electron/engine/rpc/direct';
import { parseAnnotations } from '../../electron/engine/index/annotations';
import { FakeEmbedder } from '../../testkit/fake-embedder';
import { tmpDir, writeTree } from '../helpers/tmp';

const engines: Engine[] = [];
afterEach(async () => {
  while (engines.length) await engines.pop()!.dispose();
});

const MEMORY = [
  '# Long-term',
  '',
  '- Keep the gateway on loopback. <!-- trigger: gateway setup, network safety --> <!-- importance: 9 -->',
  '',
  '## Releases',
  '',
  '- Use the release helper for package validation. <!-- project: GitHub.com/openclaw/openclaw -->',
  '',
  '## Misc',
  '',
  '- The gateway port is 18789 on the home server. <!-- importance: 3 -->',
  '',
].join('\n');

function start() {
  const stateDir = tmpDir('cairn-annot-');
  writeTree(stateDir, {
    'cairn.json': JSON.stringify({ memory: { search: { sync: { watch: false }, chunking: { tokens: 40, overlap: 0 } } } }),
    'workspace/MEMORY.md': MEMORY,
    'workspace/USER.md': '# User\n\n- Prefers answers in metric units, never imperial.\n',
    'workspace/memory/2024-05-08.md': '# Notes\n\n- Talked about the gateway. <!-- trigger: gateway setup -->\n',
  });
  const engine = createEngine({ stateDir, deps: { createEmbedder: async () => new FakeEmbedder(), now: () => new Date('2024-06-01T00:00:00Z') } });
  engines.push(engine);
  return createDirectClient(engine);
}

describe('annotations', () => {
  it('are parsed as OpenClaw does: triggers and importance on curated lines only, project keys anywhere', () => {
    expect(parseAnnotations(MEMORY, true)).toEqual({ triggers: ['gateway setup', 'network safety'], importance: 9, projects: ['github.com/openclaw/openclaw'] });
    // A daily note's trigger is not one OpenClaw injects on.
    expect(parseAnnotations('- x <!-- trigger: a; b --> <!-- project: k1; k2 -->', false)).toEqual({ triggers: [], importance: null, projects: ['k1', 'k2'] });
    // Out of range importance and a comment not at the end of its line are ignored.
    expect(parseAnnotations('- x <!-- importance: 11 -->\n- y <!-- trigger: t --> more', true)).toEqual({ triggers: [], importance: null, projects: [] });
  });

  it('come back on search results, and filter a search by trigger, project and importance', async () => {
    const api = start();
    const all = await api['search.query']({ query: 'gateway', maxResults: 10, minScore: 0 });
    const loopback = all.results.find((r) => r.snippet.includes('loopback'));
    expect(loopback?.annotations).toEqual({ triggers: ['gateway setup', 'network safety'], importance: 9, projects: [] });

    const byTrigger = await api['search.query']({ query: 'gateway', trigger: 'gateway setup', maxResults: 10, minScore: 0 });
    expect(byTrigger.results.map((r) => r.path)).toEqual(['MEMORY.md']);
    expect(byTrigger.results[0]?.snippet).toContain('loopback');

    const important = await api['search.query']({ query: 'gateway', importanceMin: 5, maxResults: 10, minScore: 0 });
    expect(important.results.map((r) => r.annotations?.importance)).toEqual([9]);

    const byProject = await api['search.query']({ query: 'release helper', project: 'github.com/openclaw/openclaw', maxResults: 10, minScore: 0 });
    expect(byProject.results.map((r) => r.snippet.includes('release helper'))).toEqual([true]);

    const none = await api['search.query']({ query: 'gateway', trigger: 'no such phrase', maxResults: 10, minScore: 0 });
    expect(none.results).toEqual([]);
  });

  it('come back with a memory file, line by line, for the Memory view\'s chips', async () => {
    const api = start();
    const doc = await api['memory.read']({ path: 'MEMORY.md' });
    expect(doc.annotations).toEqual([
      { line: 3, annotations: { triggers: ['gateway setup', 'network safety'], importance: 9, projects: [] } },
      { line: 7, annotations: { triggers: [], importance: null, projects: ['github.com/openclaw/openclaw'] } },
      { line: 11, annotations: { triggers: [], importance: 3, projects: [] } },
    ]);
    expect((await api['memory.read']({ path: 'USER.md' })).annotations).toBeUndefined();
  });
});

describe('USER.md', () => {
  it('is listed with the long-term memory, readable, and found by search', async () => {
    const api = start();
    const { files } = await api['memory.list']({});
    expect(files.slice(0, 2).map((f) => [f.path, f.kind])).toEqual([
      ['MEMORY.md', 'long-term'],
      ['USER.md', 'long-term'],
    ]);
    expect((await api['memory.read']({ path: 'USER.md' })).text).toContain('metric units');
    const res = await api['search.query']({ query: 'metric units', minScore: 0 });
    expect(res.results[0]?.path).toBe('USER.md');
  });
});
