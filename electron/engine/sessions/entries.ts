/**
 * `sessions.entries`: one page of a session's entries for the timeline, each with its own
 * token estimate and the context size once it is in the context (for the token chart).
 * The per-entry numbers are computed once per parsed transcript and reused across pages.
 */
import type { Message } from '../../../shared/types/messages';
import type { EntryTextResult, EntryView, SessionEntriesResult } from '../../../shared/types/sessions';
import { EngineError } from '../core/errors';
import { branchPath, entryToMessage, summaryMessage } from '../transcript/context';
import { isCompactionEntry } from '../transcript/entries';
import { estimateMessageTokens } from '../transcript/tokens';
import type { Entry, Transcript } from '../transcript/types';
import { tokenLife } from './token-series';
import { contentText } from '../../../shared/text/content';

const PREVIEW_CHARS = 200;
/**
 * A tool result's text block is sent cut to its first ENTRY_TEXT_CHARS (the rest through
 * `sessions.entryText`): a 100 MB session is mostly tool output, and sending it whole made
 * every 1,000-entry page ~10 MB of JSON for the UI thread to parse. User and assistant text
 * is sent whole (it is what the timeline shows as Markdown and what find-in-session reads).
 */
const ENTRY_TEXT_CHARS = 4000;
const SHOWN_ELSEWHERE = new Set(['type', 'id', 'parentId', 'timestamp', 'message', 'summary', 'firstKeptEntryId', 'tokensBefore', 'details', 'customType']);

interface Derived {
  tokens: number[];
  contextTokens: (number | null)[];
  onBranch: boolean[];
  /** Context tokens at the branch's end. */
  contextNow: number;
}
const derivedCache = new WeakMap<Transcript, Derived>();

/** Per-entry tokens, branch membership and running context size (cached per transcript). */
function derive(t: Transcript): Derived {
  const hit = derivedCache.get(t);
  if (hit) return hit;
  const n = t.entries.length;
  const tokens = new Array<number>(n).fill(0);
  for (let i = 0; i < n; i++) {
    const e = t.entries[i] as Entry;
    if (isCompactionEntry(e)) tokens[i] = estimateMessageTokens(summaryMessage(e.summary));
    else {
      const m = entryToMessage(e);
      if (m) tokens[i] = estimateMessageTokens(m.message);
    }
  }
  // The same estimates feed the running context size (each message is estimated once).
  const at = new Map(tokenLife(t, tokens).points.map((p) => [p.index, p.tokens]));
  const onBranch = new Array<boolean>(n).fill(false);
  for (const i of branchPath(t)) onBranch[i] = true;
  const contextTokens = new Array<number | null>(n).fill(null);
  let running = 0;
  for (let i = 0; i < n; i++) {
    if (!onBranch[i]) continue;
    running = at.get(i) ?? running;
    contextTokens[i] = running;
  }
  const d: Derived = { tokens, contextTokens, onBranch, contextNow: running };
  derivedCache.set(t, d);
  return d;
}

const textOf = (content: unknown): string =>
  contentText(content, { sep: ' ', image: '[image]', toolCall: (name, args) => `${name}(${JSON.stringify(args)})` });

/** The error of a failed model call (assistant, stopReason "error"), else undefined. */
export function turnError(message: Message | undefined): string | undefined {
  const m = message as { role?: string; stopReason?: unknown; errorMessage?: unknown } | undefined;
  if (m?.role !== 'assistant' || m.stopReason !== 'error') return undefined;
  return typeof m.errorMessage === 'string' && m.errorMessage.trim() ? m.errorMessage : 'the model call failed (no error message recorded)';
}

/** A one-line description of an `openclaw.cache-ttl` entry: a model-call marker or a projection marker. */
function cacheTtlPreview(data: unknown): string {
  const d = (data ?? {}) as { timestamp?: unknown; provider?: unknown; modelId?: unknown; prunedToolResults?: unknown; frozenToolResults?: unknown };
  if (typeof d.timestamp === 'number') return `model call recorded (prompt cache touched) · ${String(d.provider ?? '')}/${String(d.modelId ?? '')}`;
  const pruned = Array.isArray(d.prunedToolResults) ? d.prunedToolResults.length : 0;
  const frozen = Array.isArray(d.frozenToolResults) ? d.frozenToolResults.length : 0;
  return `context projection (OpenClaw): ${pruned} pruned tool result(s) replayed on later calls, ${frozen} frozen`;
}

function preview(e: Entry, message: Message | undefined): string {
  let s: string;
  const err = turnError(message);
  if (err !== undefined) s = `error: ${err}`;
  else if (message) s = textOf(message.content);
  else if (e.type === 'custom' && e.customType === 'openclaw.cache-ttl') s = cacheTtlPreview(e.data);
  else if (isCompactionEntry(e)) s = e.summary;
  else if (e.type === 'custom') s = `${String(e.customType)} ${JSON.stringify(e.data ?? null)}`;
  else if (e.type === 'model_change') s = `${String(e.provider ?? '')}/${String(e.modelId ?? '')}`;
  else if (e.type === 'thinking_level_change') s = String(e.thinkingLevel ?? '');
  else if (e.type === 'label') s = `${String(e.label ?? '')} → ${String(e.targetId ?? '')}`;
  else if (e.type === 'session_info') s = String(e.name ?? '');
  else s = JSON.stringify(e);
  const one = s.replace(/\s+/g, ' ').trim();
  return one.length > PREVIEW_CHARS ? `${one.slice(0, PREVIEW_CHARS - 1)}…` : one;
}

/** `message` with each long tool-result text block cut to ENTRY_TEXT_CHARS, and which were cut. */
function clipToolResult(message: Message | undefined): { message: Message | undefined; clipped?: { block: number; length: number }[] } {
  if (message?.role !== 'toolResult') return { message };
  const content = message.content as unknown;
  if (typeof content === 'string') {
    return content.length > ENTRY_TEXT_CHARS
      ? { message: { ...message, content: content.slice(0, ENTRY_TEXT_CHARS) } as unknown as Message, clipped: [{ block: 0, length: content.length }] }
      : { message };
  }
  if (!Array.isArray(content)) return { message };
  const clipped: { block: number; length: number }[] = [];
  const blocks = (content as { type?: string; text?: unknown }[]).map((b, block) => {
    if (b?.type !== 'text' || typeof b.text !== 'string' || b.text.length <= ENTRY_TEXT_CHARS) return b;
    clipped.push({ block, length: b.text.length });
    return { ...b, text: b.text.slice(0, ENTRY_TEXT_CHARS) };
  });
  return clipped.length ? { message: { ...message, content: blocks } as Message, clipped } : { message };
}

/** The view of entry `i`. */
export function entryView(t: Transcript, i: number): EntryView {
  const d = derive(t);
  const e = t.entries[i] as Entry;
  const m = entryToMessage(e);
  const whole = m && m.kind !== 'summary' ? m.message : undefined;
  const { message, clipped } = clipToolResult(whole);
  const fields: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(e)) if (!SHOWN_ELSEWHERE.has(k)) fields[k] = v;
  const comp = isCompactionEntry(e)
    ? {
        summary: e.summary,
        firstKeptEntryId: e.firstKeptEntryId,
        tokensBefore: e.tokensBefore,
        details: e.details as Record<string, unknown> | undefined,
        extract: e.details?.extract === true,
      }
    : undefined;
  return {
    index: i,
    line: t.entryLines[i] as number,
    id: e.id,
    parentId: e.parentId ?? null,
    type: e.type,
    timestamp: e.timestamp,
    role: e.type === 'message' ? String((e.message as { role?: unknown })?.role) : undefined,
    tokens: d.tokens[i] as number,
    contextTokens: d.contextTokens[i] ?? null,
    onBranch: d.onBranch[i] as boolean,
    preview: preview(e, whole),
    ...(turnError(whole) !== undefined ? { error: turnError(whole) } : {}),
    message,
    ...(clipped ? { clipped } : {}),
    compaction: comp,
    customType: typeof e.customType === 'string' ? e.customType : undefined,
    fields,
  };
}

/** One page of entries. */
export function sessionEntries(t: Transcript, opts: { sessionId: string; offset: number; limit: number; contextWindow: number }): SessionEntriesResult {
  const d = derive(t);
  const end = Math.min(t.entries.length, opts.offset + opts.limit);
  const entries: EntryView[] = [];
  for (let i = opts.offset; i < end; i++) entries.push(entryView(t, i));
  return {
    sessionId: opts.sessionId,
    file: t.file,
    header: t.header,
    total: t.entries.length,
    offset: opts.offset,
    entries,
    malformed: t.malformed.map((m) => ({ line: m.line, error: m.error, preview: m.preview })),
    contextWindow: opts.contextWindow,
    contextTokens: d.contextNow,
  };
}

/**
 * A page of one text block of a tool result (`sessions.entryText`): the timeline's "Show
 * all" for a block `sessions.entries` sent cut. `not_found` names what is missing.
 */
export function entryText(t: Transcript, opts: { sessionId: string; entryId: string; block: number; offset: number; limit: number }): EntryTextResult {
  const i = t.byId.get(opts.entryId);
  const e = i === undefined ? undefined : t.entries[i];
  const content = e?.type === 'message' ? (e.message as { content?: unknown } | undefined)?.content : undefined;
  const block = typeof content === 'string' && opts.block === 0 ? { type: 'text', text: content } : Array.isArray(content) ? (content[opts.block] as { type?: string; text?: unknown } | undefined) : undefined;
  if (typeof block?.text !== 'string') {
    throw new EngineError('not_found', `sessions.entryText: session ${opts.sessionId} has no text block ${opts.block} in entry ${opts.entryId}`);
  }
  const text = block.text;
  return { entryId: opts.entryId, block: opts.block, offset: opts.offset, text: text.slice(opts.offset, opts.offset + opts.limit), length: text.length };
}
