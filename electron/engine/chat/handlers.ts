/**
 * Contract handlers of the chat: `chat.send` runs one turn of the assistant on a session
 * (a new one when no id is given), streaming its steps as `chat.event`; `chat.newSession`
 * creates an empty one. Turns on one session run one after another.
 */
import type { ChatEvent, ChatSendResult, ChatSessionInfo } from '../../../shared/types/chat';
import type { ContextSlot, EngineContext } from '../core/context';
import { EngineError } from '../core/errors';
import type { Handlers } from '../rpc/dispatcher';
import { engineLlm, requireLlm } from '../llm/service';
import { createChatSession, findChatSession } from './sessions';
import { buildSessionStart } from './session-start';
import { runTurn } from './turn';
import { checkinSession, checkoutSession } from './session-cache';
import { parseCompactCommand } from './turn-steps';
import { workspaceTools } from './tools/workspace';
import { engineMemoryBackend, memoryTools } from './tools/memory';
import type { Tool } from './tools/types';
import { afterTranscriptChange } from '../sessions/after-change';
import { refuseReadOnlyStore, resolveSession } from '../sessions/resolve';

/** The assistant's tools for an agent: read/write/edit in the workspace, memory_search/memory_get. */
export function chatTools(ctx: EngineContext, agentId: string): Tool[] {
  const { workspace } = ctx.paths(agentId);
  return [...workspaceTools({ workspace, writable: () => ctx.state().writable }), ...memoryTools(engineMemoryBackend(ctx, agentId))];
}

/** Options of one `sendChat` call. */
export interface SendOptions {
  sessionId?: string | undefined;
  agentId?: string | undefined;
  signal?: AbortSignal | undefined;
  onEvent?: (sessionId: string, e: ChatEvent) => void;
}

/** The tail of each session's queue of turns (a context member: per engine). */
const locksSlot: ContextSlot<Map<string, Promise<unknown>>> = { name: 'chat turn queue', create: () => new Map() };

/** Run `fn` after every earlier turn of the same session has finished. */
function serialized<T>(ctx: EngineContext, key: string, fn: () => Promise<T>): Promise<T> {
  const m = ctx.member(locksSlot);
  const prev = m.get(key) ?? Promise.resolve();
  const run = prev.catch(() => {}).then(fn);
  const tail = run.catch(() => {});
  m.set(key, tail);
  void tail.then(() => {
    if (m.get(key) === tail) m.delete(key);
  });
  return run;
}

/** One user turn (or `/compact`) on a session of the engine. */
export async function sendChat(ctx: EngineContext, text: string, opts: SendOptions = {}): Promise<ChatSendResult> {
  const manual = parseCompactCommand(text) !== undefined;
  // A manual compaction works without a model (deterministic extract); a chat does not.
  const llm = manual ? safeLlm(ctx) : requireLlm(ctx);
  const agentId = ctx.agentId(opts.agentId);
  if (opts.sessionId) refuseReadOnlyStore(ctx, opts.sessionId, agentId, manual ? 'compact' : 'chat');
  if (manual && !opts.sessionId) throw new EngineError('bad_request', '/compact needs a session: send a message first or open a session');
  ctx.assertWritable(manual ? 'compact' : 'chat');
  const paths = ctx.paths(agentId);
  // Load a local model (or probe a server) before creating anything: a model that cannot be
  // used must not leave an empty session behind.
  if (!manual) await (llm as { load?: (s?: AbortSignal) => Promise<unknown> } | undefined)?.load?.(opts.signal);
  const ref = opts.sessionId ? findChatSession(paths, opts.sessionId) : await createChatSession(paths, ctx.now());
  return serialized(ctx, ref.file, async () => {
    const cfg = ctx.config().config;
    const d = cfg.agents.defaults;
    const start = buildSessionStart({ workspace: paths.workspace, now: ctx.now(), timeZone: d.userTimezone });
    const session = manual ? undefined : checkoutSession(ctx, ref.file);
    try {
      return await runTurn(text, {
        session,
        llm,
        file: ref.file,
        sessionId: ref.sessionId,
        sessionsIndex: paths.sessionsIndex,
        system: start.system,
        tools: chatTools(ctx, agentId),
        compaction: d.compaction,
        pruning: d.contextPruning,
        contextTokens: d.contextTokens,
        workspace: paths.workspace,
        writable: ctx.state().writable,
        timeZone: d.userTimezone,
        now: () => ctx.now(),
        signal: opts.signal,
        emit: (e) => opts.onEvent?.(ref.sessionId, e),
      });
    } finally {
      if (session) checkinSession(ctx, ref.file, session);
    }
  });
}

function safeLlm(ctx: EngineContext) {
  try {
    return engineLlm(ctx);
  } catch {
    return undefined;
  }
}

/** Handlers of `chat.send` and `chat.newSession`. */
export function chatHandlers(ctx: EngineContext): Pick<Handlers, 'chat.send' | 'chat.newSession'> {
  return {
    'chat.send': (req, { signal, opId }) =>
      sendChat(ctx, req.text, {
        sessionId: req.sessionId,
        agentId: req.agentId,
        signal,
        onEvent: (sessionId, event) => ctx.events.emit('chat.event', { ...(opId ? { opId } : {}), sessionId, event }),
      })
        .then((res) => {
          const agentId = ctx.agentId(req.agentId);
          afterTranscriptChange(ctx, agentId, resolveSession(ctx, res.sessionId, agentId).file, 'turn');
          return res;
        }),
    // A model that cannot be reached or used (unavailable) or a session OpenClaw is writing
    // (conflict) crosses with its error's own code: the dispatcher maps every error.
    'chat.newSession': async (req): Promise<ChatSessionInfo> => {
      const agentId = ctx.agentId(req.agentId);
      ctx.assertWritable('new session');
      const ref = await createChatSession(ctx.paths(agentId), ctx.now());
      return { ...ref, agentId };
    },
  };
}
