/** Text output of `cairn audit`: the state-dir summary, one session's compactions, the MEMORY.md health list. */
import type { CompactionAudit, LostItem, MemoryHealth, SessionAudit, StateAudit } from '../../../shared/types/audit';

const n = (v: number | undefined) => (v === undefined ? '?' : v.toLocaleString('en-US'));

/** The agent's summary line and one line per compacted session. */
export function formatStateAudit(a: StateAudit): string {
  const out = [a.summary];
  if (a.last) {
    out.push('', `The last loss: session ${a.last.sessionId}, compaction ${a.last.compactionId.slice(0, 8)} (${a.last.timestamp}):`);
    a.last.identifiers.forEach((v, i) => out.push(`  ${v}  — said at ${a.last?.at[i]?.cite ?? '?'} (${a.last?.at[i]?.role ?? '?'})`));
  }
  if (a.sessions.length) {
    out.push('', 'Compacted sessions:');
    for (const s of a.sessions) {
      if (s.error) out.push(`  ${s.sessionId}  could not be audited: ${s.error}`);
      else out.push(`  ${s.sessionId}  ${s.compactions} compaction${s.compactions === 1 ? '' : 's'}, ${s.lostIdentifiers} lost identifier${s.lostIdentifiers === 1 ? '' : 's'}${s.lastLost.length ? `; the last lost ${s.lastLost.join(', ')}` : ''}`);
    }
    out.push('', 'Details: cairn audit --session <id>');
  }
  return out.join('\n');
}

function items(title: string, list: readonly LostItem[], total: number): string[] {
  if (!total) return [];
  return [`  ${title} (${total}):`, ...list.slice(0, 20).map((x) => `    - ${x.text}  [${x.at.cite}, ${x.at.role}]`), ...(total > 20 ? [`    (+${total - 20} more: --json lists them)`] : [])];
}

function formatCompaction(c: CompactionAudit): string[] {
  const tokens = `${n(c.tokensBefore)} → ${n(c.tokensAfter)} tokens${c.threshold ? ` (compaction threshold ${n(c.threshold)})` : ''}`;
  const out = [`#${c.ordinal} ${c.id.slice(0, 8)}  ${c.timestamp}  ${tokens}  ${c.origin}  [${c.cite}]`];
  out.push(`  compacted: lines ${c.compacted.fromLine}–${c.compacted.toLine}, ${c.compacted.messages} messages, ${c.compacted.identifiers} identifiers; summary ${n(c.summaryChars)} chars`);
  if (c.summaryOf) out.push(`  summary of a summary: replaced #${c.summaryOf.ordinal} (${c.summaryOf.cite}); what that one carried counts here`);
  const f = c.flush;
  const ran = f.ran === null ? 'unknown' : f.ran ? `ran${f.at ? ` at ${f.at}` : ''}` : 'did not run';
  const under = f.underThreshold !== undefined && f.threshold !== undefined ? `; tokens before were ${f.underThreshold >= 0 ? `${n(f.underThreshold)} under` : `${n(-f.underThreshold)} over`} the flush threshold ${n(f.threshold)}` : '';
  out.push(`  flush: ${ran} (${f.evidence}); ${f.wrote.length} note line${f.wrote.length === 1 ? '' : 's'} counted as flushed${f.approximate ? ' (approximate: notes changed after the compaction too)' : ''}${under}`);
  for (const s of c.safeguard) out.push(`  safeguard: ${s}`);
  const ids = c.lost.identifiers;
  if (c.lostCounts.identifiers) {
    out.push(`  lost identifiers (${c.lostCounts.identifiers}):`);
    for (const i of ids.slice(0, 30)) out.push(`    ${i.value}  — ${i.at.cite} (${i.at.role}${i.mentions > 1 ? `, ${i.mentions}×` : ''})`);
    if (c.lostCounts.identifiers > 30) out.push(`    (+${c.lostCounts.identifiers - 30} more: --json lists them)`);
  } else out.push('  lost identifiers: none');
  out.push(...items('lost asks', c.lost.asks, c.lostCounts.asks), ...items('lost TODOs', c.lost.todos, c.lostCounts.todos), ...items('lost decisions', c.lost.decisions, c.lostCounts.decisions));
  return out;
}

/** Every compaction of one session. */
export function formatSessionAudit(a: SessionAudit): string {
  const out = [`Session ${a.sessionId} (${a.store}), identifierPolicy ${a.policy}: ${a.summary}`];
  for (const c of a.compactions) out.push('', ...formatCompaction(c));
  out.push('', 'Open a citation: cairn get <sessions/…#L…>');
  return out.join('\n');
}

/** The MEMORY.md health list. */
export function formatHealth(h: MemoryHealth): string {
  if (!h.exists) return `${h.path} does not exist.`;
  const out = [`${h.path}: ${h.entries} entries, ${h.items.length} to look at.`];
  out.push(`  recall: ${h.recall.state}${h.recall.reason ? ` (${h.recall.reason})` : ''}; vectors: ${h.vectors.used ? 'used' : `not used (${h.vectors.reason ?? ''})`}`);
  for (const it of h.items) {
    out.push('', `${it.kind}  ${h.path}:${it.entry.line}  ${it.entry.text}`, `  ${it.message}`);
    for (const e of it.evidence) out.push(`  evidence: ${e.path}:${e.line}  ${e.text}`);
  }
  return out.join('\n');
}
