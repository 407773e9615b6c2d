/**
 * Issue 40 item 1: the one float copy of each vector (`embedding_cache`) is half precision
 * (schema 10, index/half-float.ts) — half the bytes of float32 — and a float32 copy, as an
 * older index or a resume file holds, still reads. The search's scores from half copies are
 * within 1e-4 of the float32 ones (index-one-copy.test.ts compares them with an exact scan).
 */
import { describe, expect, it } from 'vitest';
import { FakeEmbedder } from '../../testkit/fake-embedder';
import { memoryFixture, settingsWith } from '../helpers/memory-fixture';
import { openDatabase } from '../../electron/engine/index/db';
import { blobVec, vecBlob } from '../../electron/engine/index/store';
import { halfBlob } from '../../electron/engine/index/half-float';
import { toHalf } from '../../electron/engine/util/half';

describe('half-precision float copies', () => {
  it('an index keeps each float copy in 2 bytes a component, and reads it back within half precision', async () => {
    const embedder = new FakeEmbedder();
    const fx = memoryFixture({ 'workspace/memory/2024-01-01.md': '# Garden\n\nwatered the tomatoes before the trip\n' }, settingsWith((s) => (s.sources = ['memory'])));
    const idx = fx.open({ embedder });
    await idx.sync();
    await idx.dispose();
    const { db } = openDatabase(fx.indexFile, { readonly: true });
    const rows = db.prepare('SELECT embedding FROM embedding_cache').pluck().all() as Buffer[];
    db.close();
    expect(rows.length).toBeGreaterThan(0);
    for (const r of rows) {
      expect(r.byteLength).toBe(embedder.dims * 2 + 1);
      expect(blobVec(r)).toHaveLength(embedder.dims);
    }
  });

  it('rounds to the nearest half and reads float32 blobs as before', () => {
    const v = Float32Array.from([0, -0, 1, -2.5, 0.1, 1e-5, 65504, 1e6, 0.00006103515625]);
    const back = blobVec(halfBlob(v));
    expect(Array.from(back.subarray(0, 4))).toEqual([0, -0, 1, -2.5]);
    expect(back[4]).toBeCloseTo(0.1, 4);
    expect(back[5]).toBeCloseTo(1e-5, 7); // a subnormal half
    expect(back[6]).toBe(65504);
    expect(back[7]).toBe(Infinity);
    expect(back[8]).toBe(0.00006103515625); // the smallest normal half
    expect(toHalf(1 + 2 ** -11)).toBe(0x3c00); // a tie rounds to even
    const f32 = Float32Array.from([0.1, -0.2, 0.3, 0.4]);
    expect(Array.from(blobVec(vecBlob(f32)))).toEqual(Array.from(f32));
  });

  it('reads every one of the 65,536 halves as its exact value', () => {
    const blob = Buffer.alloc(65536 * 2 + 1);
    for (let h = 0; h < 65536; h++) blob.writeUInt16LE(h, h * 2);
    const back = blobVec(blob);
    for (let h = 0; h < 65536; h++) {
      const s = h & 0x8000 ? -1 : 1;
      const e = (h >> 10) & 0x1f;
      const m = h & 0x3ff;
      const want = e === 0 ? s * m * 2 ** -24 : e === 31 ? (m ? NaN : s * Infinity) : s * (1 + m / 1024) * 2 ** (e - 15);
      if (!Object.is(back[h], want)) expect({ h, got: back[h] }).toEqual({ h, got: want });
    }
  });
});
