/**
 * `prune.preview`: what pruning would send the model for a session right now (or at `now`),
 * with each tool result's text on disk beside its pruned text (excerpts; `prune.text` pages
 * through a whole one). Reads only; never writes.
 */
import type { Message } from '../../../shared/types/messages';
import { PRUNE_EXCERPT_CHARS, type PrunePreviewResult, type PruneResultView, type PruneTextResult } from '../../../shared/types/sessions';
import { ContextPruningSchema } from '../config/schema';
import { deepMerge } from '../config/load';
import type { EngineContext } from '../core/context';
import { EngineError } from '../core/errors';
import { currentModel, findLastCallAt, findProjection, hasOnlyProjectionMarkers, prune } from '../pruning';
import { buildContext } from '../transcript/context';
import type { Transcript } from '../transcript/types';
import { contentText } from '../../../shared/text/content';

function toolText(m: Message | undefined): string {
  if (!m || m.role !== 'toolResult') return '';
  return contentText(m.content, { image: (mime) => `[image ${mime}]` });
}

/**
 * The prompt size the provider reported for the newest model call (OpenClaw's
 * `contextUsage.promptTokens`, else `usage.input`): what was actually sent, system prompt
 * included — the figure to hold Cairn's char-based estimate against.
 */
function lastRecordedCall(t: Transcript): PrunePreviewResult['lastCall'] {
  for (let i = t.entries.length - 1; i >= 0; i--) {
    const e = t.entries[i];
    if (e?.type !== 'message') continue;
    const m = e.message as { role?: string; usage?: { input?: unknown; contextUsage?: { promptTokens?: unknown } }; contextUsage?: { promptTokens?: unknown } };
    if (m?.role !== 'assistant') continue;
    const p = m.contextUsage?.promptTokens ?? m.usage?.contextUsage?.promptTokens ?? m.usage?.input;
    if (typeof p === 'number' && p > 0) return { entryId: e.id, promptTokens: p };
  }
  return undefined;
}

export interface PreviewOptions {
  sessionId: string;
  contextWindow: number;
  overrides?: Record<string, unknown> | undefined;
  now?: number | undefined;
  ignoreTtl?: boolean | undefined;
  /** The session's recorded system prompt size (system-prompt.ts), when known. */
  systemPromptTokens?: number | undefined;
}

interface Computed {
  settings: ReturnType<typeof ContextPruningSchema.parse>;
  built: ReturnType<typeof buildContext>;
  r: ReturnType<typeof prune>;
  model: ReturnType<typeof currentModel>;
  projection: ReturnType<typeof findProjection>;
}

/**
 * The last pruning computed per transcript, keyed by its options: "show all" on a row
 * (`prune.text`) asks for the same pruning the preview just ran, and re-pruning a 100 MB
 * session for each click would be wasted work. One slot: the view tries one setting at a time.
 */
const lastComputed = new WeakMap<Transcript, { key: string; value: Computed }>();

function compute(ctx: EngineContext, t: Transcript, opts: PreviewOptions): Computed {
  const base = ctx.config().config.agents.defaults.contextPruning as unknown as Record<string, unknown>;
  const parsed = ContextPruningSchema.safeParse(opts.overrides ? deepMerge(base, opts.overrides) : base);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new EngineError('bad_request', `prune.preview: overrides.${issue?.path.join('.') ?? ''}: ${issue?.message ?? 'invalid'}`);
  }
  const settings = parsed.data;
  const now = opts.now ?? ctx.now().getTime();
  const key = JSON.stringify([settings, opts.contextWindow, now, opts.ignoreTtl === true]);
  const hit = lastComputed.get(t);
  if (hit?.key === key) return hit.value;
  const built = buildContext(t);
  const model = currentModel(t.entries);
  const projection = findProjection(t.entries);
  const r = prune(built.messages, settings, {
    contextWindowTokens: opts.contextWindow,
    now,
    lastCallAt: findLastCallAt(t.entries, model),
    entryIds: built.sources.map((s) => s.entryId),
    ignoreTtl: opts.ignoreTtl,
    replay: projection?.pruned,
    routeEligible: !hasOnlyProjectionMarkers(t.entries),
  });
  const value = { settings, built, r, model, projection };
  lastComputed.set(t, { key, value });
  return value;
}

/**
 * The preview for a parsed transcript. The diff is computed over the full texts; each row
 * carries only the first PRUNE_EXCERPT_CHARS of each side and the full lengths.
 */
export function prunePreview(ctx: EngineContext, t: Transcript, opts: PreviewOptions): PrunePreviewResult {
  const { settings, built, r, model, projection } = compute(ctx, t, opts);
  const results: PruneResultView[] = r.diff.toolResults.map((d) => {
    const before = toolText(built.messages[d.index]);
    const after = d.action === 'kept' ? before : toolText(r.messages[d.index]);
    return {
      index: d.index,
      entryId: d.entryId,
      toolName: d.toolName,
      action: d.action,
      keptBecause: d.keptBecause,
      charsBefore: d.charsBefore,
      charsAfter: d.charsAfter,
      replayed: d.replayed,
      imagesRemoved: d.imagesRemoved,
      before: before.slice(0, PRUNE_EXCERPT_CHARS),
      beforeLength: before.length,
      after: after.slice(0, PRUNE_EXCERPT_CHARS),
      afterLength: after.length,
    };
  });
  return {
    sessionId: opts.sessionId,
    contextWindow: opts.contextWindow,
    model,
    settings,
    diff: r.diff,
    results,
    projection: projection ? { entryId: projection.entryId, replayed: projection.pruned.size, frozen: projection.frozen } : undefined,
    lastCall: lastRecordedCall(t),
    systemPromptTokens: opts.systemPromptTokens,
    // What the next call would send, as Cairn estimates it: pruned messages + the recorded system prompt.
    sentTokensEstimate: Math.ceil(r.diff.totalCharsAfter / 4) + (opts.systemPromptTokens ?? 0),
  };
}

/**
 * A page of one tool result's whole text (`prune.text`): `side` "before" is the text on
 * disk, "after" what the same pruning as the preview would send. `not_found` names an
 * entry that is not a tool result in the context.
 */
export function pruneText(
  ctx: EngineContext,
  t: Transcript,
  opts: PreviewOptions & { entryId: string; side: 'before' | 'after'; offset: number; limit: number },
): PruneTextResult {
  const { built, r } = compute(ctx, t, opts);
  const d = r.diff.toolResults.find((x) => x.entryId === opts.entryId);
  if (!d) throw new EngineError('not_found', `prune.text: entry ${opts.entryId} is not a tool result in the context of session ${opts.sessionId}`);
  const text = toolText((opts.side === 'before' ? built.messages : r.messages)[d.index]);
  return { entryId: opts.entryId, side: opts.side, offset: opts.offset, text: text.slice(opts.offset, opts.offset + opts.limit), length: text.length };
}
