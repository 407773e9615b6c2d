/**
 * Hand-built zstd frames for hostile-input tests: `rleBomb` is a frame of RLE blocks (4 bytes
 * each for 128 KiB of output), so 33 KB inflates to 1 GiB; `hugeWindowFrame` declares a
 * 2 GiB window that a decoder would allocate up front. Built by hand so the tests need no
 * zstd encoder.
 */

/** One frame of `blocks` RLE blocks of 128 KiB of byte `fill`, with no declared content size. */
export function rleBomb(blocks: number, fill = 0x41): Buffer {
  const parts = [Buffer.from([0x28, 0xb5, 0x2f, 0xfd, 0x00, 0x38])]; // magic; no FCS; window 128 KiB
  for (let i = 0; i < blocks; i++) {
    const v = (i === blocks - 1 ? 1 : 0) | (1 << 1) | (131072 << 3);
    parts.push(Buffer.from([v & 255, (v >> 8) & 255, (v >> 16) & 255, fill]));
  }
  return Buffer.concat(parts);
}

/** A frame whose header declares a ~2 GiB window, followed by one tiny RLE block. */
export function hugeWindowFrame(): Buffer {
  const v = 1 | (1 << 1) | (4 << 3);
  return Buffer.from([0x28, 0xb5, 0x2f, 0xfd, 0x00, (20 << 3) | 7, v & 255, (v >> 8) & 255, (v >> 16) & 255, 0x41]);
}
