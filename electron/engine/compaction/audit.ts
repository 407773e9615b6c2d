/**
 * The compaction audit: for every compaction of a transcript — OpenClaw's or
 * Cairn's, JSONL or OpenClaw's SQLite store, all parsed the same way — what the compacted part
 * said that neither the summary, nor the memory flush before it, nor the messages kept
 * verbatim still hold: identifiers (found by identifiers.ts, as the extract finds them), open
 * asks, TODOs and decisions (classified as extract.ts classifies them). A summary of a summary
 * is audited against the one it replaced too: what the earlier summary carried and this one
 * dropped is lost here. Deterministic: no model, same answer for the same files.
 */
import type { AuditFlush, AuditIdentifierPolicy, CompactionAudit, SaidAt } from '../../../shared/types/audit';
import { contentText } from '../../../shared/text/content';
import { branchPath } from '../transcript/context';
import { isCompactionEntry, isMessageEntry } from '../transcript/entries';
import { redactSecrets } from '../util/redact';
import type { CompactionEntry, Entry, Transcript } from '../transcript/types';
import { clip, LostCollector, type Said } from './audit-collect';
import { identifierKept, keptCorpus } from './audit-keep';
import { dropContained } from './identifiers';
import { TOOL_RESULT_MAX_CHARS } from './serialize';

/** Lists in the answer are capped (the counts are not). */
export const AUDIT_LIST_MAX = 200;

/** What the caller knows about the flush before compaction `ordinal` (1-based), window `[from, to]` in ms. */
export type FlushLookup = (c: { ordinal: number; id: string; fromMs: number | undefined; toMs: number; tokensBefore: number | undefined }) => AuditFlush;

export interface AuditOptions {
  sessionId: string;
  policy: AuditIdentifierPolicy;
  flushFor: FlushLookup;
  /** The compaction threshold in tokens for this session (shown beside tokens before). */
  threshold?: number | undefined;
  /** Awaited between compactions: lets the engine thread answer others (and may throw to cancel). */
  between?: (() => Promise<void>) | undefined;
}

function saidAt(t: Transcript, sessionId: string, i: number, role: string, excerpt: string): SaidAt {
  const e = t.entries[i] as Entry;
  const line = t.entryLines[i] ?? i + 2;
  return { entryId: e.id, line, cite: `sessions/${sessionId}.jsonl#L${line}`, role, timestamp: e.timestamp, excerpt };
}

/** The texts an entry contributes to the compacted part (what a summariser saw of it). */
function textsOf(e: Entry): { role: string; text: string; call?: boolean }[] {
  if (!isMessageEntry(e)) return [];
  const m = e.message as { role: string; content?: unknown };
  if (m.role === 'toolResult') return [{ role: 'toolResult', text: contentText(m.content as never).slice(0, TOOL_RESULT_MAX_CHARS) }];
  const out: { role: string; text: string; call?: boolean }[] = [{ role: m.role, text: contentText((m.content ?? '') as never) }];
  if (Array.isArray(m.content)) {
    for (const b of m.content as { type?: string; arguments?: unknown }[]) if (b?.type === 'toolCall') out.push({ role: m.role, text: JSON.stringify(b.arguments ?? {}), call: true });
  }
  // Secrets never reach the report (it is shown, printed and scripted): read as the extract reads.
  return out.filter((x) => x.text).map((x) => ({ ...x, text: redactSecrets(x.text) }));
}

/** Safeguard retries/failures OpenClaw (or Cairn) recorded on the entry. */
function safeguardNotes(c: CompactionEntry): string[] {
  const out: string[] = [];
  const scan = (obj: unknown, where: string) => {
    if (!obj || typeof obj !== 'object') return;
    for (const [k, v] of Object.entries(obj as Record<string, unknown>)) {
      if (/safeguard|retr(y|ies)|quality|fallback|fail|error/i.test(k)) out.push(`${where}${k}: ${clip(JSON.stringify(v) ?? '', 200)}`);
    }
  };
  scan(c.details, '');
  scan(c, '');
  return out;
}

/**
 * The compacted part of the compaction at entry `ci`, along its own branch (a transcript may
 * branch: `parentId` links, transcript/context.ts): from where the previous compaction on that
 * branch kept verbatim (or the branch's start) to this one's first kept entry; and the entries
 * kept verbatim after it. Indexes into `t.entries`.
 */
function partsOf(t: Transcript, ci: number): { prevAt: number | undefined; compacted: number[]; keptTail: number[] } {
  const path = branchPath(t, (t.entries[ci] as Entry).id);
  const last = path.length - 1; // the compaction itself
  let prevPos: number | undefined;
  for (let p = last - 1; p >= 0; p--) {
    if (isCompactionEntry(t.entries[path[p] as number] as Entry)) {
      prevPos = p;
      break;
    }
  }
  const posOf = (id: string | undefined, from: number) => {
    if (!id) return undefined;
    const p = path.indexOf(t.byId.get(id) ?? -1, from);
    return p >= 0 && p < last ? p : undefined;
  };
  const prev = prevPos === undefined ? undefined : (t.entries[path[prevPos] as number] as CompactionEntry);
  const start = prev ? (posOf(prev.firstKeptEntryId, 0) ?? (prevPos as number) + 1) : 0;
  const end = posOf((t.entries[ci] as CompactionEntry).firstKeptEntryId, start) ?? last;
  return {
    prevAt: prevPos === undefined ? undefined : path[prevPos],
    compacted: path.slice(start, end).filter((i) => !isCompactionEntry(t.entries[i] as Entry)),
    keptTail: path.slice(end, last),
  };
}

/** Audit every compaction of `t`, oldest first (a big session's audit yields between compactions through `between`). */
export async function auditTranscript(t: Transcript, opts: AuditOptions): Promise<CompactionAudit[]> {
  const comps: number[] = [];
  t.entries.forEach((e, i) => isCompactionEntry(e) && comps.push(i));
  const ordinals = new Map(comps.map((ci, n) => [ci, n + 1]));
  const out: CompactionAudit[] = [];
  for (const [n, ci] of comps.entries()) {
    if (n > 0) await opts.between?.();
    const c = t.entries[ci] as CompactionEntry;
    const ordinal = n + 1;
    const parts = partsOf(t, ci);
    const prev = parts.prevAt === undefined ? undefined : { i: parts.prevAt, c: t.entries[parts.prevAt] as CompactionEntry, ordinal: ordinals.get(parts.prevAt) ?? 0 };
    const said: Said[] = [];
    let messages = 0;
    for (const i of parts.compacted) {
      const texts = textsOf(t.entries[i] as Entry);
      if (texts.length) messages++;
      for (const x of texts) said.push({ ...x, at: saidAt(t, opts.sessionId, i, x.role, '') });
    }
    const keptTail: string[] = [];
    for (const i of parts.keptTail) for (const x of textsOf(t.entries[i] as Entry)) keptTail.push(x.text);
    const fromMs = prev ? Date.parse(prev.c.timestamp) : t.header ? Date.parse(t.header.timestamp) : undefined;
    const flush = opts.flushFor({ ordinal, id: c.id, fromMs: Number.isFinite(fromMs) ? fromMs : undefined, toMs: Date.parse(c.timestamp), tokensBefore: c.tokensBefore });
    const summary = typeof c.summary === 'string' ? c.summary : '';
    const corpus = keptCorpus([summary, ...flush.wrote.map((w) => w.text), ...keptTail].map(redactSecrets));

    const lost = new LostCollector(corpus);
    // Identifiers: the earlier summary's first (it is older), then the compacted messages'.
    if (prev) lost.fromSummary(prev.c, saidAt(t, opts.sessionId, prev.i, 'summary', ''));
    lost.fromSaid(said);
    const unresolved = c.details?.latestUnresolvedUserRequest;
    if (typeof unresolved === 'string' && unresolved.trim()) {
      const at = said.find((s) => s.role === 'user' && s.text.includes(unresolved.trim().slice(0, 60)))?.at ?? saidAt(t, opts.sessionId, ci, 'user', '');
      lost.item('asks', unresolved, at);
    }
    const { ids, items: lostItems } = lost;
    const longest = new Set(dropContained(ids.keys()));
    const lostIds = [...ids.values()].filter((x) => longest.has(x.value) && !identifierKept(x.value, corpus));
    const identifiers = lostIds.length;
    out.push({
      id: c.id,
      ordinal,
      line: t.entryLines[ci] ?? ci + 2,
      cite: `sessions/${opts.sessionId}.jsonl#L${t.entryLines[ci] ?? ci + 2}`,
      timestamp: c.timestamp,
      tokensBefore: typeof c.tokensBefore === 'number' ? c.tokensBefore : undefined,
      tokensAfter: typeof c.tokensAfter === 'number' ? c.tokensAfter : undefined,
      threshold: opts.threshold,
      extract: c.details?.extract === true,
      origin: c.fromHook === true ? 'OpenClaw (fromHook)' : c.details?.extract === true ? 'Cairn (extract)' : typeof c.__openclaw === 'object' ? 'OpenClaw' : 'model summary',
      compacted: { fromLine: t.entryLines[parts.compacted[0] ?? ci] ?? 1, toLine: t.entryLines[parts.compacted.at(-1) ?? ci] ?? 1, messages, identifiers: longest.size },
      summaryOf: prev
        ? { id: prev.c.id, ordinal: prev.ordinal, line: t.entryLines[prev.i] ?? 0, cite: `sessions/${opts.sessionId}.jsonl#L${t.entryLines[prev.i] ?? 0}`, chars: String(prev.c.summary ?? '').length }
        : undefined,
      summaryChars: summary.length,
      flush,
      lost: {
        identifiers: lostIds.slice(0, AUDIT_LIST_MAX),
        asks: lostItems.asks.slice(0, AUDIT_LIST_MAX),
        todos: lostItems.todos.slice(0, AUDIT_LIST_MAX),
        decisions: lostItems.decisions.slice(0, AUDIT_LIST_MAX),
      },
      lostCounts: { identifiers, asks: lostItems.asks.length, todos: lostItems.todos.length, decisions: lostItems.decisions.length },
      safeguard: safeguardNotes(c),
    });
  }
  return out;
}

/** "2 of 3 compactions lost identifiers; the last one lost `ZX-4471`, `db/pool.ts`". */
export function auditSentence(audits: readonly { lostIds: readonly string[] }[], policy: AuditIdentifierPolicy): string {
  if (audits.length === 0) return 'No compactions to audit.';
  const lossy = audits.filter((a) => a.lostIds.length > 0);
  const last = lossy.at(-1);
  const noun = audits.length === 1 ? 'compaction' : 'compactions';
  let s = `${lossy.length} of ${audits.length} ${noun} lost identifiers`;
  if (last) {
    const shown = last.lostIds.slice(0, 3).map((v) => `\`${v}\``);
    const more = last.lostIds.length > 3 ? ` and ${last.lostIds.length - 3} more` : '';
    s += `; the last one lost ${shown.join(', ')}${more}`;
  }
  if (policy === 'off') s += ' (identifierPolicy is "off": summaries were not asked to keep them)';
  return `${s}.`;
}
