/**
 * sessions.entries sends long tool outputs cut (issue 14.2): a 100 MB session is mostly tool
 * output, and whole 1,000-entry pages were ~10 MB of JSON for the UI thread. What the user
 * sees must not change: the sizes and token estimates are those of the whole text, user and
 * assistant text comes whole, and "Show all" (sessions.entryText) returns the exact text.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createEngine } from '../../electron/engine/engine';
import { createDirectClient } from '../../electron/engine/rpc/direct';
import { createTranscriptFile } from '../../electron/engine/transcript/append';
import { openSessionFile, type NewEntry } from '../../electron/engine/transcript/session-file';
import type { Message } from '../../shared/types/messages';
import { tmpDir } from '../helpers/tmp';

function log(chars: number): string {
  let s = '';
  for (let i = 0; s.length < chars; i++) s += `[${i}] step ${i} ok\n`;
  return s.slice(0, chars);
}

describe('sessions.entries: long tool outputs are cut, fetched whole on demand', () => {
  it('cuts a 120 KB tool result to 4,000 chars with its full length; entryText pages return it exactly', async () => {
    const stateDir = tmpDir();
    const dir = path.join(stateDir, 'agents', 'main', 'sessions');
    const file = path.join(dir, 's1.jsonl');
    createTranscriptFile(file, { id: 's1', timestamp: '2025-03-01T00:00:00.000Z', cwd: dir });
    const big = log(120_000);
    const longAsk = `Please read this: ${'why '.repeat(2_000)}`;
    const msg = (message: Message): NewEntry => ({ type: 'message', message });
    openSessionFile(file).append(
      msg({ role: 'user', content: longAsk }),
      msg({ role: 'assistant', content: [{ type: 'toolCall', id: 'c1', name: 'bash', arguments: { command: 'make' } }] }),
      msg({ role: 'toolResult', toolCallId: 'c1', toolName: 'bash', content: [{ type: 'text', text: 'exit 0' }, { type: 'text', text: big }], isError: false }),
    );
    const engine = createEngine({ stateDir });
    try {
      const api = createDirectClient(engine);
      const page = await api['sessions.entries']({ sessionId: 's1' });
      const [ask, , result] = page.entries;
      // User text is whole; the tool output is cut, and says how long it is.
      expect((ask?.message as { content: string }).content).toBe(longAsk);
      expect(ask?.clipped).toBeUndefined();
      const blocks = (result?.message as { content: { text: string }[] }).content;
      expect(blocks[0]?.text).toBe('exit 0');
      expect(blocks[1]?.text).toBe(big.slice(0, 4000));
      expect(result?.clipped).toEqual([{ block: 1, length: 120_000 }]);
      // The estimate is of the whole output (SPEC §2: ceil(chars / 4)).
      expect(result?.tokens).toBeGreaterThanOrEqual(Math.ceil(120_000 / 4));

      let whole = '';
      for (let offset = 0; ; ) {
        const p = await api['sessions.entryText']({ sessionId: 's1', entryId: result?.id as string, block: 1, offset, limit: 50_000 });
        expect(p.length).toBe(120_000);
        whole += p.text;
        offset += p.text.length;
        if (offset >= p.length) break;
      }
      expect(whole).toBe(big);
      await expect(api['sessions.entryText']({ sessionId: 's1', entryId: result?.id as string, block: 7 })).rejects.toMatchObject({ code: 'not_found', message: expect.stringContaining('block 7') });
    } finally {
      await engine.dispose();
    }
  });
});
