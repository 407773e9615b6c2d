/** Handlers of the sessions, pruning preview and compaction channels (shared/contract/sessions.ts). */
import type { EngineContext } from '../core/context';
import type { Handlers } from '../rpc/dispatcher';
import { afterTranscriptChange } from './after-change';
import { compactPlan, compactRun } from './compact-ops';
import { entryText, sessionEntries } from './entries';
import { firstPageFromHead } from './head-page';
import { loadSoftly } from './load-soft';
import { listSessions } from './list';
import { prunePreview, pruneText, type PreviewOptions } from './preview';
import { resolveSession, type ResolvedSession } from './resolve';
import { systemPromptFacts } from './system-prompt';
import { followOpenclawStore } from './store/follow';

/** The preview's options from a `prune.preview` / `prune.text` request. */
function previewOptions(
  s: ResolvedSession,
  req: { contextWindowTokens?: number | undefined; overrides?: Record<string, unknown> | undefined; now?: string | undefined; ignoreTtl?: boolean | undefined },
): PreviewOptions {
  return {
    sessionId: s.sessionId,
    contextWindow: req.contextWindowTokens ?? s.contextWindow,
    overrides: req.overrides,
    now: req.now ? Date.parse(req.now) : undefined,
    ignoreTtl: req.ignoreTtl,
    systemPromptTokens: systemPromptFacts(s.entry)?.tokens,
  };
}

export function sessionsHandlers(ctx: EngineContext): Pick<Handlers, 'sessions.list' | 'sessions.entries' | 'sessions.entryText' | 'prune.preview' | 'prune.text' | 'compact.plan' | 'compact.run'> {
  return {
    'sessions.list': (req) => {
      // Whoever lists sessions sees OpenClaw's new ones: `sessions.changed` from now on.
      followOpenclawStore(ctx, ctx.paths(req.agentId).agentId);
      return listSessions(ctx, req.agentId);
    },
    'sessions.entries': async (req) => {
      const s = resolveSession(ctx, req.sessionId, req.agentId);
      // A big file's first page comes from its head; the whole parse follows the answer.
      const head = firstPageFromHead(ctx, s, req);
      if (head) return head;
      return sessionEntries(await loadSoftly(ctx, s), { sessionId: s.sessionId, offset: req.offset, limit: req.limit, contextWindow: s.contextWindow });
    },
    'sessions.entryText': async (req) => {
      const s = resolveSession(ctx, req.sessionId, req.agentId);
      return entryText(await loadSoftly(ctx, s), { sessionId: s.sessionId, entryId: req.entryId, block: req.block, offset: req.offset, limit: req.limit });
    },
    'prune.preview': async (req) => {
      const s = resolveSession(ctx, req.sessionId, req.agentId);
      return prunePreview(ctx, await loadSoftly(ctx, s), previewOptions(s, req));
    },
    'prune.text': async (req) => {
      const s = resolveSession(ctx, req.sessionId, req.agentId);
      return pruneText(ctx, await loadSoftly(ctx, s), { ...previewOptions(s, req), entryId: req.entryId, side: req.side, offset: req.offset, limit: req.limit });
    },
    'compact.plan': (req, call) => compactPlan(ctx, resolveSession(ctx, req.sessionId, req.agentId), req, call.signal),
    'compact.run': async (req, call) => {
      const s = resolveSession(ctx, req.sessionId, req.agentId);
      const out = await compactRun(ctx, s, req, call);
      afterTranscriptChange(ctx, s.agentId, s.file, 'compaction');
      return out;
    },
  };
}
