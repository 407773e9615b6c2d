/**
 * OpenClaw 2026.9's token estimate of a text, reproduced so the recall section is measured as
 * OpenClaw measures the context it joins: `estimateTokensFromChars(estimateStringChars(text))`
 * (openclaw dist `cjk-chars-*.mjs`, packages/normalization-core/src/cjk-chars.ts) —
 * `ceil(chars / 4)` where a character counts its UTF-16 length, plus weights for CJK: a common
 * CJK character (and the middle dot) counts 4, a rare BMP one 12, a width or tone form 8, a
 * supplementary ideograph 16 (14 past its two code units), a few three-token supplementary
 * symbols 12. Latin text is plain `ceil(length / 4)` (SPEC §2).
 */

/** OpenClaw's WEIGHTED_CJK_RANGES, by bucket: extra weight = (bucket weight − the code point's UTF-16 length). */
const BUCKETS: { weight: number; ranges: [number, number][] }[] = [
  { weight: 4, ranges: [[183, 183], [12288, 12703], [19968, 40869], [44032, 55215], [65281, 65376]] },
  { weight: 12, ranges: [[4352, 4607], [11904, 12287], [12704, 19967], [40870, 40959], [40960, 42239], [42752, 42759], [43360, 43391], [55216, 55295], [63744, 64255]] },
  { weight: 8, ranges: [[711, 711], [713, 715], [729, 729], [746, 747], [773, 773], [803, 803], [65040, 65103], [65377, 65500], [65504, 65510]] },
  { weight: 12, ranges: [[119648, 119665]] },
  { weight: 16, ranges: [[94176, 94207], [110576, 110591], [110592, 110959], [127488, 127743], [131072, 195103], [196608, 210047]] },
];

function weightOf(cp: number): number | undefined {
  for (const b of BUCKETS) for (const [s, e] of b.ranges) if (cp >= s && cp <= e) return b.weight;
  return undefined;
}

/** OpenClaw's `estimateStringChars`: the weighted char count of `text`. */
export function openclawStringChars(text: string): number {
  // Fast path, as OpenClaw's: ASCII only.
  if (!/[^\p{ASCII}]/u.test(text)) return text.length;
  let chars = text.length;
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    if (cp < 128) continue;
    const w = weightOf(cp);
    if (w !== undefined) chars += w - ch.length;
  }
  return chars;
}

/**
 * OpenClaw's token estimate of `text`: `ceil(estimateStringChars(text) / 4)` — what the tests
 * and the eval check a section against (the packer counts characters, openclawStringChars).
 * @internal
 */
export function openclawTokens(text: string): number {
  return Math.ceil(openclawStringChars(text) / 4);
}
