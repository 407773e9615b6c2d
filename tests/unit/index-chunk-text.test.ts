/**
 * Issue 40 item 1: the chunk text, the index's largest column, is stored compressed (raw
 * DEFLATE, index/chunk-text.ts); results still show it as written, and an older index's
 * plain TEXT still reads.
 */
import { describe, expect, it } from 'vitest';
import { memoryFixture, settingsWith } from '../helpers/memory-fixture';
import { openDatabase } from '../../electron/engine/index/db';
import { unpackText } from '../../electron/engine/index/chunk-text';

const note = `# Trip\n\n${Array.from({ length: 30 }, (_, i) => `- day ${i}: we walked along the river to the old mill and back before lunch`).join('\n')}\n`;

describe('chunk text stored compressed', () => {
  it('keeps each chunk in fewer bytes than its text, and results show the text as written', async () => {
    const fx = memoryFixture({ 'workspace/memory/2024-03-01.md': note }, settingsWith((s) => (s.sources = ['memory'])));
    const idx = fx.open();
    await idx.sync();
    const res = await idx.search({ query: 'mill', maxResults: 1 });
    await idx.dispose();
    expect(res.results[0]?.snippet).toContain('we walked along the river to the old mill');
    const { db } = openDatabase(fx.indexFile, { readonly: true });
    const rows = db.prepare('SELECT text FROM chunks').pluck().all() as Buffer[];
    db.close();
    let stored = 0;
    let plain = 0;
    for (const b of rows) {
      expect(Buffer.isBuffer(b)).toBe(true);
      stored += b.byteLength;
      plain += Buffer.byteLength(unpackText(b));
    }
    expect(stored).toBeLessThan(plain / 2);
    expect(unpackText('an older index keeps TEXT')).toBe('an older index keeps TEXT');
  });
});
