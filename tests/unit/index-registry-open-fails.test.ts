/**
 * An index that fails to open while a memory file changes does not take the process down:
 * the change is remembered (the index opens dirty next time) and the failure reaches only the
 * caller that asked for the index. Before, `notifyChanged` chained a `.then` onto the opening
 * index with no rejection handler — an unhandled rejection, which ends `cairn serve` and
 * `cairn mcp` (Node's default).
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createEngine } from '../../electron/engine/engine';
import { memoryRegistry } from '../../electron/engine/index/registry';
import { FakeEmbedder } from '../../testkit/fake-embedder';
import { tmpDir } from '../helpers/tmp';

const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => unhandled.push(reason);
process.on('unhandledRejection', onUnhandled);
afterEach(() => void process.off('unhandledRejection', onUnhandled));

describe('an index that fails to open during a change notice', () => {
  it('rejects only for the caller, leaves no unhandled rejection, and the change is kept', async () => {
    const engine = createEngine({ stateDir: path.join(tmpDir(), 'state'), deps: { createEmbedder: async () => new FakeEmbedder() } });
    try {
      const file = engine.ctx.paths().indexFile;
      fs.mkdirSync(file, { recursive: true }); // a folder where the index file should be: it cannot open
      const reg = memoryRegistry(engine.ctx);
      const changed: string[][] = [];
      engine.events.on('memory.changed', (e) => changed.push(e.paths));
      const opening = reg.get('main');
      reg.notifyChanged('main', ['MEMORY.md']);
      await expect(opening).rejects.toThrow(/cannot open the index database/);
      // One turn of the event loop: Node reports unhandled rejections after the microtasks.
      await new Promise<void>((resolve) => setImmediate(resolve));
      expect(unhandled).toEqual([]);
      expect(changed).toEqual([['MEMORY.md']]);
      // Once the index can open, it opens dirty and syncs the file.
      fs.rmSync(file, { recursive: true });
      fs.mkdirSync(engine.ctx.paths().workspace, { recursive: true });
      fs.writeFileSync(path.join(engine.ctx.paths().workspace, 'MEMORY.md'), '- the heron-lantern plan\n');
      const res = await engine.ctx.searchBackend().search('main', { query: 'heron-lantern' });
      expect(res.results[0]?.path).toBe('MEMORY.md');
    } finally {
      await engine.dispose();
    }
  });
});
