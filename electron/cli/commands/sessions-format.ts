/** Plain-text rendering of sessions, entries, pruning diffs and compaction plans for the CLI. */
import type {
  CompactPlanResult,
  CompactRunResult,
  EntryView,
  PrunePreviewResult,
  SessionSummary,
} from '../../../shared/types/sessions';
import { localDateTime } from '../../../shared/text/local-time';

const pad = (s: string, n: number) => (s.length >= n ? s : s + ' '.repeat(n - s.length));
const lpad = (s: string, n: number) => (s.length >= n ? s : ' '.repeat(n - s.length) + s);
const k = (n: number) => (n >= 10000 ? `${(n / 1000).toFixed(1)}k` : String(n));

export function formatSessionList(sessions: SessionSummary[]): string {
  if (sessions.length === 0) return 'no sessions';
  const rows = sessions.map((s) => [
    s.id,
    String(s.messages),
    // The system prompt is counted where OpenClaw recorded it (~: part of the figure is its report).
    `${s.systemPromptTokens ? '~' : ''}${k(s.estimatedTokens + (s.systemPromptTokens ?? 0))}/${k(s.contextWindow)}`,
    String(s.compactions),
    // Local, as the window writes it: a UTC time read as local is off by the zone's offset.
    s.lastActivity ? (localDateTime(s.lastActivity) ?? s.lastActivity) : '—',
    s.key ?? '',
  ]);
  const head = ['SESSION', 'MESSAGES', 'TOKENS', 'COMPACTIONS', 'LAST ACTIVITY', 'KEY'];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] as string).length)));
  const line = (r: string[]) => r.map((c, i) => (i === 1 || i === 3 ? lpad(c, widths[i] as number) : pad(c, widths[i] as number))).join('  ').trimEnd();
  return [line(head), ...rows.map(line)].join('\n');
}

export function formatEntry(e: EntryView): string {
  const kind = e.role ? `${e.type}/${e.role}` : e.customType ? `${e.type}:${e.customType}` : e.type;
  const ctx = e.contextTokens === null ? '   (off branch)' : ` ctx ${lpad(String(e.contextTokens), 7)}`;
  const head = `L${lpad(String(e.line), 5)} ${e.id} ${pad(kind, 24)} ${lpad(String(e.tokens), 6)} tok${ctx}  ${e.preview}`;
  if (!e.compaction) return head;
  const c = e.compaction;
  const body = c.summary.split('\n').map((l) => `         │ ${l}`).join('\n');
  return `${head}\n         ├ firstKeptEntryId ${c.firstKeptEntryId} · tokensBefore ${c.tokensBefore}${c.extract ? ' · extract (no model)' : ''}\n${body}`;
}

export function formatPrune(r: PrunePreviewResult): string {
  const d = r.diff;
  const g = d.gate;
  const gate =
    g.reason === 'off' ? 'pruning is off (mode "off")'
    : g.reason === 'no-cache-touch' ? 'no openclaw.cache-ttl entry for this model: the gate is closed (use --ignore-ttl to see what pruning would do)'
    : g.reason === 'route-not-eligible' ? 'this route is not cache-TTL eligible (OpenClaw records no model-call markers on it, only projections): the gate is closed (use --ignore-ttl to see what pruning would do)'
    : g.reason === 'ttl-not-expired' ? `cache TTL not expired: last call ${new Date(g.lastCallAt ?? 0).toISOString()}, ttl ${g.ttlMs / 1000}s (use --ignore-ttl or --now)`
    : g.reason === 'ttl-ignored' ? 'TTL ignored (--ignore-ttl)'
    : `cache TTL expired (last call ${new Date(g.lastCallAt ?? 0).toISOString()})`;
  const lines = [
    `session ${r.sessionId} · model ${r.model.provider ?? '?'}/${r.model.modelId ?? '?'} · context window ${r.contextWindow} tokens (${d.charWindow} chars)`,
    `gate: ${gate}`,
    `ratio ${d.ratioBefore.toFixed(3)} → ${d.ratioAfter.toFixed(3)} · chars ${d.totalCharsBefore} → ${d.totalCharsAfter} · soft-trimmed ${d.softTrimmed} · cleared ${d.cleared}${d.replayed ? ` (${d.replayed} replayed)` : ''}`,
  ];
  if (r.projection?.replayed) lines.push(`replay: OpenClaw's projection ${r.projection.entryId ?? ''} re-applies ${r.projection.replayed} recorded pruning(s) on every call, whatever the gate says`);
  if (r.lastCall) lines.push(`last model call (${r.lastCall.entryId}): ${r.lastCall.promptTokens} prompt tokens as the provider counted them, system prompt included`);
  lines.push(`next call (Cairn's estimate): ~${r.sentTokensEstimate} tokens${r.systemPromptTokens ? ` (messages ~${r.sentTokensEstimate - r.systemPromptTokens} + system prompt ~${r.systemPromptTokens} as OpenClaw recorded it)` : ' of messages (system prompt not known)'}`);
  for (const t of d.toolResults) {
    const what = (t.action === 'kept' ? `kept (${t.keptBecause ?? ''})` : t.replayed ? `${t.action} (replayed)` : t.action) + (t.imagesRemoved ? ` ${t.imagesRemoved} image(s) removed` : '');
    lines.push(`  ${t.entryId ?? `#${t.index}`}  ${pad(t.toolName, 12)} ${pad(what, 26)} ${lpad(String(t.charsBefore), 8)} → ${t.charsAfter}`);
  }
  lines.push('(nothing was written: pruning only changes what the model is sent)');
  return lines.join('\n');
}

export function formatPlan(p: CompactPlanResult): string {
  if (!p.possible) return `session ${p.sessionId}: ${p.reason}`;
  return [
    `session ${p.sessionId}: ${p.reason}`,
    `cut before ${p.cutEntryId ?? '(nothing kept)'} · firstKeptEntryId ${p.firstKeptEntryId}${p.previousCompactionId ? ` · updates summary ${p.previousCompactionId}` : ''}`,
    `tokens ${p.tokensBefore} → ≤ ${p.tokensAfterMax} (kept ${p.keptTokens}, summarised ${p.summarizedTokens}, keep budget ${p.keepBudget})`,
    `thresholds: compact above ${p.thresholds.compactAt} (window ${p.contextWindow} − reserve ${p.thresholds.reserve}${p.thresholds.reserveCapped ? ', capped at a quarter of the window' : ''}) · memory flush at ${p.thresholds.flushAt}`,
    `summariser: ${p.summarizer ? `${p.summarizer.provider}/${p.summarizer.model}` : 'none — the deterministic extract would be written'} · ${p.mode === 'staged' ? `${p.stages} stages + merge` : 'one request'}`,
    ...(p.summarizer ? [] : [`extract: ${p.extractNote}`]),
    '',
    '--- system prompt ---',
    p.prompt.system,
    `--- user prompt${p.mode === 'staged' ? ' (stage 1)' : ''} ---`,
    p.prompt.user,
  ].join('\n');
}

export function formatRun(r: CompactRunResult): string {
  if (!r.compacted) return `session ${r.sessionId}: not compacted: ${r.reason}`;
  return [
    `session ${r.sessionId}: compacted · entry ${r.entryId} · firstKeptEntryId ${r.firstKeptEntryId}`,
    `tokens ${r.tokensBefore} → ${r.tokensAfter} · ${r.extract ? `deterministic extract (${r.extractReason ?? 'no model'})` : `model summary (${r.modelCalls} call${r.modelCalls === 1 ? '' : 's'})`}`,
    `checkpoint: ${r.checkpoint ?? 'none'}`,
    '',
    r.summary ?? '',
  ].join('\n');
}
