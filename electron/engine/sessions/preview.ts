/**
 * `prune.preview`: what pruning would send the model for a session right now (or at `now`),
 * with each tool result's text on disk beside its pruned text. Reads only; never writes.
 */
import type { Message } from '../../../shared/types/messages';
import type { PrunePreviewResult, PruneResultView } from '../../../shared/types/sessions';
import { ContextPruningSchema } from '../config/schema';
import { deepMerge } from '../config/load';
import type { EngineContext } from '../context';
import { EngineError } from '../rpc/dispatcher';
import { currentModel, findLastCallAt, findProjection, hasOnlyProjectionMarkers, prune } from '../pruning';
import { buildContext } from '../transcript/context';
import type { Transcript } from '../transcript/types';

function toolText(m: Message | undefined): string {
  if (!m || m.role !== 'toolResult') return '';
  if (!Array.isArray(m.content)) return typeof m.content === 'string' ? m.content : '';
  return m.content.map((b) => (b.type === 'text' ? b.text : `[image ${b.mimeType}]`)).join('\n');
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

/** The preview for a parsed transcript. */
export function prunePreview(ctx: EngineContext, t: Transcript, opts: PreviewOptions): PrunePreviewResult {
  const base = ctx.config().config.agents.defaults.contextPruning as unknown as Record<string, unknown>;
  const parsed = ContextPruningSchema.safeParse(opts.overrides ? deepMerge(base, opts.overrides) : base);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new EngineError('bad_request', `prune.preview: overrides.${issue?.path.join('.') ?? ''}: ${issue?.message ?? 'invalid'}`);
  }
  const settings = parsed.data;
  const built = buildContext(t);
  const model = currentModel(t.entries);
  const projection = findProjection(t.entries);
  const r = prune(built.messages, settings, {
    contextWindowTokens: opts.contextWindow,
    now: opts.now ?? ctx.now().getTime(),
    lastCallAt: findLastCallAt(t.entries, model),
    entryIds: built.sources.map((s) => s.entryId),
    ignoreTtl: opts.ignoreTtl,
    replay: projection?.pruned,
    routeEligible: !hasOnlyProjectionMarkers(t.entries),
  });
  const results: PruneResultView[] = r.diff.toolResults.map((d) => ({
    index: d.index,
    entryId: d.entryId,
    toolName: d.toolName,
    action: d.action,
    keptBecause: d.keptBecause,
    charsBefore: d.charsBefore,
    charsAfter: d.charsAfter,
    replayed: d.replayed,
    imagesRemoved: d.imagesRemoved,
    before: toolText(built.messages[d.index]),
    after: toolText(r.messages[d.index]),
  }));
  return {
    sessionId: opts.sessionId,
    contextWindow: opts.contextWindow,
    model,
    settings: settings as unknown as Record<string, unknown>,
    diff: r.diff,
    results,
    projection: projection ? { entryId: projection.entryId, replayed: projection.pruned.size, frozen: projection.frozen } : undefined,
    lastCall: lastRecordedCall(t),
    systemPromptTokens: opts.systemPromptTokens,
    // What the next call would send, as Cairn estimates it: pruned messages + the recorded system prompt.
    sentTokensEstimate: Math.ceil(r.diff.totalCharsAfter / 4) + (opts.systemPromptTokens ?? 0),
  };
}
