/**
 * The bridge's `read` op for the Cairn tab (electron/engine/openclaw/tab-read.ts) on a real
 * engine over a temp state dir: read channels answer as the dispatcher does, every other channel
 * is refused without reaching its handler (no file changes), and an answer too large to carry
 * through OpenClaw's process says so instead of being sent.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createEngine } from '../../electron/engine/engine';
import { tabRead } from '../../electron/engine/openclaw/tab-read';
import { tmpDir, writeTree } from '../helpers/tmp';

describe('the tab read op', () => {
  it('answers read channels, refuses writes, and refuses an answer over the limit', async () => {
    const stateDir = writeTree(tmpDir('cairn-tabread-'), { 'workspace/MEMORY.md': '# Memory\n\n- The quince is the favourite fruit.\n' });
    const engine = createEngine({ stateDir, create: true });
    try {
      const list = await tabRead(engine.dispatcher, { channel: 'memory.list', request: {} });
      expect(list.ok && (list.value as { files: { path: string }[] }).files.map((f) => f.path)).toContain('MEMORY.md');
      const read = await tabRead(engine.dispatcher, { channel: 'memory.read', request: { path: 'MEMORY.md' } });
      expect(read).toMatchObject({ ok: true, value: { text: expect.stringContaining('quince') } });
      for (const channel of ['memory.write', 'memory.delete', 'compact.run', 'config.set', 'state.setWritable', 'index.sync', 'chat.send', 'op.cancel', 'nope']) {
        const r = await tabRead(engine.dispatcher, { channel, request: { path: 'MEMORY.md', text: 'gone' } });
        expect(r, channel).toMatchObject({ ok: false, error: { code: 'forbidden' } });
      }
      expect(fs.readFileSync(path.join(stateDir, 'workspace', 'MEMORY.md'), 'utf8')).toContain('quince');
      const big = await tabRead(engine.dispatcher, { channel: 'memory.read', request: { path: 'MEMORY.md' } }, undefined, 20);
      expect(big).toMatchObject({ ok: false, error: { code: 'unavailable', message: expect.stringContaining('more than the OpenClaw tab carries') } });
    } finally {
      await engine.dispose();
    }
  });
});
