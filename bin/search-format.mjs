// How `cairn search` prints results, in plain JS so that both the in-process command
// (electron/cli/commands/search.ts) and the thin client (bin/thin-client.mjs, which loads
// nothing of the engine) print the same bytes from one definition.

const fmt = (x) => (x === null ? '—' : x.toFixed(3));

/**
 * A result's picked lines as read: `L<n>: text`, a gap between non-adjacent lines marked `…`
 * (the same rule as the engine's excerpt, electron/engine/search/lines.ts, with numbers).
 */
export function numberedLines(picked) {
  const out = [];
  let last = -1;
  for (const p of picked) {
    if (last >= 0 && p.line > last + 1) out.push('…');
    out.push(`L${p.line}: ${p.text}`);
    last = p.line;
  }
  return out;
}

/** Human-readable results: citation + score, the snippet indented, and the explain line. */
export function formatResults(res) {
  if (res.results.length === 0) return 'no results';
  const lines = [];
  res.results.forEach((r, i) => {
    lines.push(`${i + 1}. ${r.citation}  score ${r.score.toFixed(3)}${r.source === 'sessions' ? '  [session]' : ''}`);
    // The lines that answer, each with its number (a gap marked …); the window when none was picked.
    if (r.lines?.length) lines.push(...numberedLines(r.lines).map((l) => `   ${l}`));
    else for (const l of r.snippet.split('\n').filter((x) => x.trim()).slice(0, 6)) lines.push(`   ${l}`);
    const an = r.annotations;
    if (an) {
      const parts = [];
      if (an.triggers.length) parts.push(`trigger: ${an.triggers.join(', ')}`);
      if (an.importance !== null) parts.push(`importance ${an.importance}`);
      if (an.projects.length) parts.push(`project: ${an.projects.join(', ')}`);
      lines.push(`   # ${parts.join(' · ')}`);
    }
    const p = r.provenance;
    if (p) {
      const from = p.sessions?.length ? ` · from ${p.sessions.join(', ')}` : '';
      lines.push(`   # provenance: ${p.origin}${p.sessionKind !== 'unknown' ? ` (${p.sessionKind})` : ''}${p.observedAt ? ` · observed ${p.observedAt.slice(0, 10)}` : ''}${from}`);
    }
    if (r.explain) {
      const e = r.explain;
      lines.push(`   ↳ vector ${fmt(e.vector)} · text ${fmt(e.text)} · merged ${fmt(e.merged)} · decay ${fmt(e.decay)}${e.mmrRank ? ` · mmr #${e.mmrRank}` : ''}`);
    }
  });
  return lines.join('\n');
}

/**
 * The status line printed to stderr after the results: mode, embedder, time, and who answered
 * (QMD, or `by` — the running engine — when given).
 */
export function statusLine(res, by) {
  const emb = res.embedder ? `${res.embedder.provider}/${res.embedder.model}` : 'no embedder';
  return `(${res.mode} · ${emb} · ${res.tookMs} ms${res.backend === 'qmd' ? ' · served by QMD' : ''}${by ? ` · ${by}` : ''})`;
}
