/**
 * Bounding the nesting depth of parsed JSON values. JSON.parse accepts a
 * 100,000-deep value, but the recursive walkers after it do not: JSON.stringify with an
 * indent, structuredClone, deep merges and renderers all overflow the stack long before
 * that. Files Cairn reads (transcripts, cairn.json) are checked once, where they enter, with
 * this iterative walk, so nothing downstream ever meets a value deep enough to crash it.
 */

/** Deepest nesting a transcript entry may have (real entries stay under ~10 levels). */
export const MAX_ENTRY_DEPTH = 200;
/** Deepest nesting a settings file may have (the schema itself is 5 levels deep). */
export const MAX_CONFIG_DEPTH = 64;

/**
 * True when `value` nests objects/arrays deeper than `limit` levels (a scalar is depth 0,
 * `{}` and `[]` are depth 1). Iterative, so it cannot overflow the stack itself; stops at the
 * first path that crosses the limit.
 */
export function jsonDepthExceeds(value: unknown, limit: number): boolean {
  if (value === null || typeof value !== 'object') return false;
  const stack: { v: object; d: number }[] = [{ v: value, d: 1 }];
  while (stack.length) {
    const { v, d } = stack.pop() as { v: object; d: number };
    if (d > limit) return true;
    const children = Array.isArray(v) ? v : Object.values(v);
    for (const c of children) if (c !== null && typeof c === 'object') stack.push({ v: c as object, d: d + 1 });
  }
  return false;
}
