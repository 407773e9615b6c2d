/**
 * The character measure pruning works in (SPEC §3): text, thinking and tool-call arguments
 * count their length, a CJK character counts 4 (one CJK character is about one token, not a
 * quarter of one), an image 8,000. The CJK weighting is OpenClaw's own
 * (`openclawWeightedLength` in shared/text/cjk, not the search one), so the ratio gates fire
 * on the same messages as OpenClaw's pruner. Results are cached per content block object: the turn
 * loop prunes the same messages before every call, and a big tool result must not be
 * rescanned each time.
 */
import { openclawWeightedLength as weightedLength } from '../../../shared/text/cjk';
import type { Message } from '../../../shared/types/messages';

export const PRUNE_IMAGE_CHARS = 8000;

const blockCache = new WeakMap<object, number>();

/** Weighted characters of one content block (cached per block object). */
export function blockWeight(block: unknown): number {
  if (typeof block !== 'object' || block === null) return 0;
  const hit = blockCache.get(block);
  if (hit !== undefined) return hit;
  const b = block as { type?: unknown; text?: unknown; thinking?: unknown; name?: unknown; arguments?: unknown };
  let n = 0;
  switch (b.type) {
    case 'text':
      n = typeof b.text === 'string' ? weightedLength(b.text) : 0;
      break;
    case 'thinking':
      n = typeof b.thinking === 'string' ? weightedLength(b.thinking) : 0;
      break;
    case 'toolCall':
      n = (typeof b.name === 'string' ? b.name.length : 0) + weightedLength(JSON.stringify(b.arguments ?? {}) ?? '');
      break;
    case 'image':
      n = PRUNE_IMAGE_CHARS;
      break;
  }
  blockCache.set(block, n);
  return n;
}

/** Weighted characters of a message (details never count). */
export function messageWeight(m: Message): number {
  const c = m.content as unknown;
  if (typeof c === 'string') return weightedLength(c);
  if (!Array.isArray(c)) return 0;
  let n = 0;
  for (const b of c) n += blockWeight(b);
  return n;
}
