import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../../electron/engine/engine';
import { createDirectClient } from '../../electron/engine/rpc/direct';
import { memoryRegistry } from '../../electron/engine/index/registry';
import { CairnError } from '../../shared/client';
import type { EventPayload } from '../../shared/contract';
import { FakeEmbedder } from '../../testkit/fake-embedder';
import { tmpDir, writeTree } from '../helpers/tmp';

const engines: Engine[] = [];
afterEach(async () => {
  while (engines.length) await engines.pop()!.dispose();
});

/** A Cairn-created state dir with some memory, and an engine + client on it. */
function start(opts: { foreign?: boolean; config?: object } = {}) {
  const stateDir = tmpDir('cairn-eng-');
  if (opts.foreign) writeTree(stateDir, { 'openclaw.json': '{}' });
  const engine = createEngine({ stateDir, deps: { createEmbedder: async () => new FakeEmbedder(), now: () => new Date('2024-06-01T00:00:00Z') } });
  engines.push(engine);
  writeTree(stateDir, {
    'cairn.json': JSON.stringify(opts.config ?? { agents: { defaults: { memorySearch: { sync: { watchDebounceMs: 50 } } } } }),
    'workspace/MEMORY.md': '# Preferences\n\nPrefers dark mode.\n',
    'workspace/memory/2024-05-08.md': '# Deploy\n\nDeployed commit a1b2c3d.\n',
  });
  for (let i = 1; i <= 20; i++) writeTree(stateDir, { [`workspace/memory/2024-04-${String(i).padStart(2, '0')}.md`]: `# Day ${i}\n\n${'filler words here '.repeat(120)}\n` });
  engine.ctx.reloadConfig();
  return { stateDir, engine, api: createDirectClient(engine) };
}

function next<E extends 'index.idle' | 'memory.changed'>(engine: Engine, event: E, pred: (p: EventPayload<E>) => boolean = () => true): Promise<EventPayload<E>> {
  return new Promise((resolve) => {
    const off = engine.events.on(event, (p) => {
      if (pred(p)) {
        off();
        resolve(p);
      }
    });
  });
}

describe('search and index channels', () => {
  it('search.query builds the missing index first and answers in the contract shape', async () => {
    const { api } = start();
    const res = await api['search.query']({ query: 'a1b2c3d', explain: true });
    expect(res.mode).toBe('hybrid');
    expect(res.embedder).toEqual({ provider: 'fake', model: 'bag-of-words-v1' });
    expect(res.results[0]).toMatchObject({ path: 'memory/2024-05-08.md', citation: 'memory/2024-05-08.md#L3-L3', source: 'memory' }); // the heading is not cited (search/ranges.ts)
    expect(typeof res.tookMs).toBe('number');
    const status = await api['index.status']({});
    expect(status).toMatchObject({ agentId: 'main', exists: true, files: 22, mode: 'hybrid', vector: 'vec0', dirty: false });
    expect(status.lastSync).toBe('2024-06-01T00:00:00.000Z');
  });

  it('index.sync reports progress under its opId, ends with index.idle, and can be cancelled keeping the old index', async () => {
    const { api, engine } = start();
    const progress: EventPayload<'index.progress'>[] = [];
    engine.events.on('index.progress', (p) => progress.push(p));
    const idle = next(engine, 'index.idle');
    const r = await api['index.sync']({}, { opId: 'op-1' });
    expect(r).toMatchObject({ files: 22, mode: 'hybrid' });
    expect((await idle).result).toMatchObject({ files: 22 });
    expect(progress.length).toBeGreaterThan(0);
    expect(progress.every((p) => p.opId === 'op-1' && p.agentId === 'main')).toBe(true);
    expect(progress.at(-1)).toMatchObject({ phase: 'done', filesDone: 22, filesTotal: 22 });

    const ac = new AbortController();
    const off = engine.events.on('index.progress', () => ac.abort());
    const failedIdle = next(engine, 'index.idle');
    await expect(api['index.sync']({ force: true }, { signal: ac.signal })).rejects.toMatchObject({ code: 'cancelled' });
    off();
    expect((await failedIdle).error).toMatch(/cancel/);
    const after = await api['index.status']({});
    expect(after).toMatchObject({ files: 22, exists: true });
    expect((await api['search.query']({ query: 'dark mode' })).results[0]?.path).toBe('MEMORY.md');
  });

  it('applies a per-agent memorySearch override (agents.list[].memorySearch) on top of the defaults', async () => {
    const { api } = start({
      config: {
        agents: {
          defaults: { memorySearch: { sync: { watch: false } } },
          list: [{ id: 'main' }, { id: 'work', memorySearch: { sources: ['memory', 'sessions'] } }, { id: 'bad', memorySearch: { chunking: { tokens: -5 } } }],
        },
      },
    });
    expect((await api['index.status']({ agentId: 'work' })).sources).toEqual(['memory', 'sessions']);
    expect((await api['index.status']({ agentId: 'main' })).sources).toEqual(['memory']);
    expect((await api['index.status']({ agentId: 'bad' })).sources).toEqual(['memory']);
    expect((await api['app.status']({})).warnings.join(' ')).toMatch(/agents\.entries\.bad\.memory\.search is invalid \(chunking\.tokens/);
  });

  it('refuses an unknown agent and bad dates with clear errors', async () => {
    const { api } = start();
    await expect(api['search.query']({ query: 'x', agentId: 'nobody' })).rejects.toMatchObject({ code: 'not_found', message: expect.stringMatching(/unknown agent "nobody"/) });
    await expect(api['search.query']({ query: 'x', since: 'May 1st' })).rejects.toMatchObject({ code: 'bad_request', message: expect.stringMatching(/since/) });
  });

  it('the watcher picks up an edit: memory.changed, then a sync, then the new text is found', async () => {
    const { api, engine, stateDir } = start();
    await api['index.sync']({});
    await memoryRegistry(engine.ctx).watch('main');
    const changed = next(engine, 'memory.changed');
    const idle = next(engine, 'index.idle');
    fs.appendFileSync(path.join(stateDir, 'workspace/memory/2024-05-08.md'), '\nRolled back because of the zeppelin bug.\n');
    expect((await changed).paths).toEqual(['memory/2024-05-08.md']);
    expect((await idle).result).toMatchObject({ full: false });
    const res = await api['search.query']({ query: 'zeppelin', explain: true });
    expect(res.results[0]?.path).toBe('memory/2024-05-08.md');
  });
});

describe('searching while the watcher runs', () => {
  it('an edit is found by a search made before the debounce fires (the watcher marks the index dirty at once)', async () => {
    const { api, engine, stateDir } = start({ config: { agents: { defaults: { memorySearch: { sync: { watchDebounceMs: 60_000 } } } } } });
    await api['index.sync']({});
    const reg = memoryRegistry(engine.ctx);
    await reg.watch('main');
    expect(await reg.isWatched('main')).toBe(true);
    // Nothing changed: the index is clean without a stat pass.
    expect(await (await reg.get('main')).isDirty({ stat: false })).toBe(false);
    const idle = next(engine, 'index.idle');
    fs.appendFileSync(path.join(stateDir, 'workspace/memory/2024-05-08.md'), '\nThe narwhal migration is done.\n');
    // The debounce (60 s) has not fired; the search must still sync first and find it.
    await expect.poll(async () => (await reg.get('main')).isDirty({ stat: false })).toBe(true);
    const res = await api['search.query']({ query: 'narwhal' });
    expect(res.results[0]?.path).toBe('memory/2024-05-08.md');
    expect((await idle).result).toMatchObject({ full: false });
  });
});

describe('sessions source through the engine', () => {
  it('watches transcripts when the sessions source is on: an appended message becomes findable, secrets redacted', async () => {
    const { api, engine, stateDir } = start({
      config: { agents: { defaults: { memorySearch: { sources: ['memory', 'sessions'], sync: { watchDebounceMs: 50 } } } } },
    });
    const file = path.join(stateDir, 'agents/main/sessions/abc.jsonl');
    const line = (id: string, role: string, text: string) =>
      JSON.stringify({ type: 'message', id, parentId: null, timestamp: '2024-05-30T10:00:00Z', message: { role, content: role === 'user' ? text : [{ type: 'text', text }], timestamp: 1 } });
    writeTree(stateDir, {
      'agents/main/sessions/abc.jsonl': `${JSON.stringify({ type: 'session', version: 3, id: 'abc', timestamp: '2024-05-30T10:00:00Z', cwd: '/' })}\n${line('00000001', 'user', 'hello there')}\n`,
    });
    await api['index.sync']({});
    await memoryRegistry(engine.ctx).watch('main');
    const changed = next(engine, 'memory.changed');
    const idle = next(engine, 'index.idle');
    fs.appendFileSync(file, `${line('00000002', 'user', 'my token is sk-live-abcdefghijklmnop1234 and the quokka ate it')}\n`);
    expect((await changed).paths).toEqual(['sessions/abc.jsonl']);
    await idle;
    const res = await api['search.query']({ query: 'quokka', source: 'sessions' });
    expect(res.results[0]).toMatchObject({ path: 'sessions/abc.jsonl', source: 'sessions', startLine: 2, endLine: 3, citation: 'sessions/abc.jsonl#L2-L3' });
    expect(res.results[0]?.snippet).toBe('User: hello there\nUser: my token is [REDACTED] and the quokka ate it');
  });
});

describe('memory browser channels', () => {
  it('lists, reads and writes memory files; a stale write is a conflict', async () => {
    const { api } = start();
    const { files } = await api['memory.list']({});
    expect(files[0]).toMatchObject({ path: 'MEMORY.md', kind: 'long-term' });
    expect(files[1]).toMatchObject({ path: 'memory/2024-05-08.md', kind: 'daily', date: '2024-05-08' });
    const f = await api['memory.read']({ path: 'MEMORY.md' });
    expect(f.text).toContain('dark mode');
    const saved = await api['memory.write']({ path: 'MEMORY.md', text: `${f.text}Likes tea.\n`, expectedMtime: f.mtime });
    expect(saved.text).toContain('Likes tea.');
    await expect(api['memory.write']({ path: 'MEMORY.md', text: 'x', expectedMtime: f.mtime - 60_000 })).rejects.toMatchObject({ code: 'conflict' });
    // The next search sees the write.
    expect((await api['search.query']({ query: 'tea' })).results[0]?.path).toBe('MEMORY.md');
  });

  it('refuses paths outside the memory set with forbidden, and missing files with not_found', async () => {
    const { api } = start();
    await expect(api['memory.read']({ path: '../cairn.json' })).rejects.toMatchObject({ code: 'forbidden' });
    await expect(api['memory.read']({ path: 'memory/none.md' })).rejects.toMatchObject({ code: 'not_found' });
    await expect(api['memory.write']({ path: '/etc/passwd.md', text: 'x' })).rejects.toMatchObject({ code: 'forbidden' });
  });

  it('refuses writes when the state dir is read-only (not created by Cairn)', async () => {
    const { api } = start({ foreign: true });
    const err = await api['memory.write']({ path: 'memory/2024-06-01.md', text: 'x' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CairnError);
    expect(err).toMatchObject({ code: 'read_only' });
    expect((await api['memory.read']({ path: 'MEMORY.md' })).text).toContain('dark mode');
  });
});
