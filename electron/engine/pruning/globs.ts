/**
 * Which tools' results may be pruned: `tools.allow` / `tools.deny` globs (`*` and `?`),
 * case-insensitive; deny wins; an empty allow list allows every tool (SPEC §3).
 */

function globToRegExp(glob: string): RegExp {
  const body = glob
    .trim()
    .split('')
    .map((ch) => (ch === '*' ? '.*' : ch === '?' ? '.' : ch.replace(/[\\^$.|+()[\]{}]/g, '\\$&')))
    .join('');
  return new RegExp(`^${body}$`, 'i');
}

/** A predicate telling whether results of `toolName` may be pruned. */
export function toolPrunablePredicate(tools: { allow?: readonly string[]; deny?: readonly string[] }): (toolName: string) => boolean {
  const allow = (tools.allow ?? []).filter((g) => g.trim() !== '').map(globToRegExp);
  const deny = (tools.deny ?? []).filter((g) => g.trim() !== '').map(globToRegExp);
  const memo = new Map<string, boolean>();
  return (toolName) => {
    let v = memo.get(toolName);
    if (v === undefined) {
      v = !deny.some((r) => r.test(toolName)) && (allow.length === 0 || allow.some((r) => r.test(toolName)));
      memo.set(toolName, v);
    }
    return v;
  };
}
