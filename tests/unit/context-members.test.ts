/**
 * Engine state lives on the context (issue 11.4): the memory-index registry and the other
 * per-engine members are made once per engine and closed by engine.dispose(); two callers
 * that reach for the index right after a settings change share one new index, and no
 * SQLite handle is left open once the engine is gone.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../../electron/engine/engine';
import { memoryRegistry } from '../../electron/engine/index/registry';
import { tmpDir, writeTree } from '../helpers/tmp';

const engines: Engine[] = [];
afterEach(async () => {
  while (engines.length) await engines.pop()!.dispose();
});

function start(): { stateDir: string; engine: Engine } {
  const stateDir = tmpDir('cairn-members-');
  writeTree(stateDir, {
    'cairn/state.json': '{}',
    'cairn.json': JSON.stringify({ agents: { defaults: { memorySearch: { query: { maxResults: 6 } } } } }),
    'workspace/MEMORY.md': '# Preferences\n\nPrefers dark mode.\n',
  });
  const engine = createEngine({ stateDir, deps: { createEmbedder: async () => null } });
  engines.push(engine);
  return { stateDir, engine };
}

/** File descriptors of this process open on `file` (its -wal/-shm included). Linux /proc. */
function openHandles(file: string): string[] {
  const real = fs.realpathSync(file);
  const out: string[] = [];
  for (const fd of fs.readdirSync('/proc/self/fd')) {
    try {
      const target = fs.readlinkSync(path.join('/proc/self/fd', fd));
      if (target.startsWith(real)) out.push(target);
    } catch {
      // the fd closed while we listed
    }
  }
  return out;
}

describe.runIf(process.platform === 'linux')('context members', () => {
  it('two callers after a settings change share one new index, and dispose leaves no handle open', async () => {
    const { stateDir, engine } = start();
    const reg = memoryRegistry(engine.ctx);
    expect(memoryRegistry(engine.ctx)).toBe(reg);
    const before = await reg.get('main');
    const indexFile = engine.ctx.paths('main').indexFile;

    fs.writeFileSync(path.join(stateDir, 'cairn.json'), JSON.stringify({ agents: { defaults: { memorySearch: { query: { maxResults: 9 } } } } }));
    engine.ctx.reloadConfig();
    const [a, b] = await Promise.all([reg.get('main'), reg.get('main')]);
    expect(a).toBe(b);
    expect(a).not.toBe(before);
    expect((await reg.sync('main')).files).toBe(1);

    await engine.dispose();
    engines.length = 0;
    expect(openHandles(indexFile)).toEqual([]);
    // A disposed engine makes no new members (they would never be closed).
    expect(() => memoryRegistry(engine.ctx)).toThrow(/shutting down/);
  });

  it('each engine has its own members', async () => {
    const one = start().engine;
    const two = start().engine;
    expect(memoryRegistry(one.ctx)).not.toBe(memoryRegistry(two.ctx));
  });
});
