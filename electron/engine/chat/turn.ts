/**
 * The assistant turn loop. One user message in; then, until the model stops calling tools:
 * rebuild the context from the transcript, run the memory flush and pre-send compaction when
 * due, prune (in memory), call the model (compact and retry once on a context overflow),
 * append the reply and the cache-ttl marker, run the tools and append their results. After
 * the final reply, compaction trigger (a). Everything the loop learns goes into the JSONL
 * file through H1's transcript module; what the model was sent after pruning never does.
 */
import type { AssistantMessage, ToolCallBlock, ToolResultMessage } from '../../../shared/types/messages';
import type { ChatEvent, ChatSendResult } from '../../../shared/types/chat';
import type { CompactionSettings, ContextPruningSettings } from '../config/schema';
import type { ChatResult, LLM, ToolSpec } from '../llm/types';
import type { ContextOverflowError } from '../llm/types';
import { EngineError, errorMessage } from '../core/errors';
import { waitForOpenClawIdle } from '../util/openclaw-lock';
import { openSessionFile, type SessionFile } from '../transcript/session-file';
import { buildContext, type BuiltContext } from '../transcript/context';
import type { Transcript } from '../transcript/types';
import { estimateTokens, estimateTextTokens } from '../transcript/tokens';
import { updateSessionEntry } from '../transcript/sessions-index';
import { prune, findLastCallAt, CACHE_TTL_CUSTOM_TYPE, findProjection } from '../pruning';
import { shouldCompactAfterReply, shouldCompactBeforeSend } from '../compaction/thresholds';
import { withOverflowRetry } from '../compaction/overflow-retry';
import type { Tool } from './tools/types';
import { compactStep, flushStep, parseCompactCommand, type StepContext } from './turn-steps';
import { abortError, isAbortError } from '../util/abort';
import { contentText } from '../../../shared/text/content';

/** Tool rounds per turn before the loop stops asking the model (a runaway guard). */
export const MAX_TOOL_ROUNDS = 25;

/** Everything one turn needs: the model, the session file, the settings, the tools. */
export interface TurnOptions {
  /** The model; only `/compact` may run without one (it then writes the deterministic extract). */
  llm: LLM | undefined;
  file: string;
  sessionId: string;
  /** sessions.json of the agent. */
  sessionsIndex: string;
  /** The system prompt with the session-start memory (session-start.ts). */
  system: string;
  tools: Tool[];
  compaction: CompactionSettings;
  pruning: ContextPruningSettings;
  /** Used when the model does not report its window (agents.defaults.contextTokens). */
  contextTokens: number;
  workspace: string;
  writable: boolean;
  timeZone?: string | undefined;
  now?: () => Date;
  signal?: AbortSignal | undefined;
  emit?: (e: ChatEvent) => void;
  maxToolRounds?: number;
  /** An open handle on `file` to reuse (session-cache.ts); opened here when absent. */
  session?: SessionFile | undefined;
}

const cancelled = (): Error => abortError(undefined, 'the turn was cancelled');

const textOf = (m: AssistantMessage) => contentText(m.content, { sep: '' });

/**
 * A compaction the turn can live without (before sending, after the reply): a failure is
 * reported as an event and the turn goes on; only a cancel stops it.
 */
async function tolerant(run: () => Promise<boolean>, trigger: 'preflight' | 'threshold', emit: (e: ChatEvent) => void, signal: AbortSignal | undefined): Promise<boolean> {
  try {
    return await run();
  } catch (err) {
    if (isAbortError(err, signal)) throw err;
    emit({ kind: 'compaction', trigger, compacted: false, reason: `failed: ${(err as Error).message}` });
    return false;
  }
}

/** Run tool calls in order, appending each result; on cancel (or `refusal`), the rest get error results. */
async function runTools(calls: ToolCallBlock[], tools: Tool[], session: SessionFile, o: TurnOptions, now: () => Date, emit: (e: ChatEvent) => void, refusal?: string): Promise<void> {
  const byName = new Map(tools.map((t) => [t.spec.name, t]));
  for (const call of calls) {
    let out: Awaited<ReturnType<Tool['run']>>;
    if (refusal) {
      out = { content: [{ type: 'text', text: refusal }], isError: true };
    } else if (o.signal?.aborted) {
      out = { content: [{ type: 'text', text: 'Cancelled by the user before the tool ran.' }], isError: true };
    } else {
      const tool = byName.get(call.name);
      try {
        out = tool
          ? await tool.run(call.arguments ?? {}, o.signal)
          : { content: [{ type: 'text', text: `unknown tool "${call.name}"; available: ${[...byName.keys()].join(', ')}` }], isError: true };
      } catch (err) {
        out = { content: [{ type: 'text', text: o.signal?.aborted ? 'Cancelled by the user.' : `the tool failed: ${errorMessage(err)}` }], isError: true };
      }
    }
    const result: ToolResultMessage = { role: 'toolResult', toolCallId: call.id, toolName: call.name, content: out.content, isError: out.isError, timestamp: now().getTime() };
    if (out.details !== undefined) result.details = out.details;
    session.appendMessage(result);
    const preview = contentText(out.content, { image: '[image]' }).slice(0, 300);
    emit({ kind: 'toolResult', id: call.id, name: call.name, isError: out.isError, preview });
  }
}

/** What one round of the tool loop needs besides the options. */
interface Round {
  llm: LLM;
  session: SessionFile;
  steps: StepContext;
  specs: ToolSpec[];
  contextWindow: number;
  result: ChatSendResult;
  /** The last context built, and the transcript state it was built from. */
  built?: { transcript: Transcript; entries: number; context: BuiltContext };
}

/**
 * The context as the transcript stands now. The session handle keeps its transcript in step
 * with its own appends (and replaces it on reload), so a context is rebuilt only when an
 * entry was appended or the file re-read since the last build: a round's pre-send checks and
 * its model call share one build, and so do the reply's estimate and the after-reply check.
 */
function contextNow(r: Round): { transcript: Transcript; context: BuiltContext } {
  const transcript = r.session.transcript();
  const b = r.built;
  if (b && b.transcript === transcript && b.entries === transcript.entries.length) return b;
  r.built = { transcript, entries: transcript.entries.length, context: buildContext(transcript) };
  return r.built;
}

/**
 * What a model call is sent: the context as it stands, pruned in memory (SPEC §3). Every call
 * of the turn goes through here — the reply's and the memory flush's.
 */
function prunedNow(r: Round, o: TurnOptions, now: () => Date): ReturnType<typeof prune> {
  const { transcript: tNow, context: ctxNow } = contextNow(r);
  const lastCallAt = findLastCallAt(tNow.entries, { provider: r.llm.provider, modelId: r.llm.model });
  // OpenClaw's recorded pruning (its projection marker) is replayed on every call, as OpenClaw does.
  const replay = findProjection(tNow.entries)?.pruned;
  return prune(ctxNow.messages, o.pruning, { contextWindowTokens: r.contextWindow, now: now(), lastCallAt, entryIds: ctxNow.sources.map((s) => s.entryId), replay });
}

/**
 * Send the context (rebuilt and pruned per attempt: after an overflow compaction it is
 * shorter) to the model, streaming its text; one overflow is answered by a compaction and a
 * retry. A cancelled reply keeps what was already streamed, marked aborted (as pi does).
 */
async function callModel(r: Round, o: TurnOptions, now: () => Date, emit: (e: ChatEvent) => void): Promise<ChatResult> {
  const { llm, session, result } = r;
  let partial = '';
  const call = async () => {
    partial = '';
    const pruned = prunedNow(r, o, now);
    if (pruned.diff.changed) {
      const d = pruned.diff;
      emit({ kind: 'pruning', softTrimmed: d.softTrimmed, cleared: d.cleared, charsSaved: d.charsSaved, ratioBefore: d.ratioBefore, ratioAfter: d.ratioAfter });
    }
    result.modelCalls++;
    return llm.chat({
      system: o.system,
      messages: pruned.messages,
      tools: r.specs,
      signal: o.signal,
      onEvent: (e) => {
        if (e.type === 'text') {
          partial += e.delta;
          emit({ kind: 'text', delta: e.delta });
        } else if (e.type === 'thinking') emit({ kind: 'thinking', delta: e.delta });
      },
    });
  };
  try {
    return await withOverflowRetry(
      call,
      async (_attempt, err: ContextOverflowError) => {
        emit({ kind: 'retry', reason: err.message });
        const done = await compactStep(r.steps, 'overflow');
        if (done) {
          result.compactions++;
          session.reload(); // the compaction appended its entry: the handle reads it
        }
        return done;
      },
      1,
    );
  } catch (err) {
    if (partial && isAbortError(err, o.signal)) {
      session.appendMessage({ role: 'assistant', content: [{ type: 'text', text: partial }], provider: llm.provider, model: llm.model, usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0 }, stopReason: 'aborted', timestamp: now().getTime() });
    }
    throw err;
  }
}

/** Append the reply and the cache-TTL marker, update sessions.json; returns the reply and the context's estimate after it. */
async function recordReply(r: Round, res: ChatResult, o: TurnOptions, now: () => Date, emit: (e: ChatEvent) => void, systemTokens: number): Promise<{ message: AssistantMessage; estimate: number }> {
  const { llm, session, result } = r;
  const message: AssistantMessage = { ...res.message, provider: res.message.provider ?? llm.provider, model: res.message.model ?? llm.model, usage: res.usage, stopReason: res.stopReason, timestamp: now().getTime() };
  await waitForOpenClawIdle(o.file, { signal: o.signal }); // the reply took a while: OpenClaw may have started
  const entry = session.appendMessage(message);
  // The prompt cache was just written: pruning's TTL gate counts from here (SPEC §3).
  session.appendCustom(CACHE_TTL_CUSTOM_TYPE, { timestamp: now().getTime(), provider: llm.provider, modelId: llm.model });
  result.usage = res.usage;
  result.stopReason = res.stopReason;
  emit({ kind: 'assistant', entryId: entry.id, stopReason: res.stopReason, usage: res.usage });
  const estimate = estimateTokens(contextNow(r).context.messages) + systemTokens;
  await updateSessionEntry(o.sessionsIndex, o.sessionId, { totalTokens: res.usage.totalTokens > 0 ? res.usage.totalTokens : estimate, updatedAt: now().getTime() });
  return { message, estimate };
}

/**
 * Before a round's call: the memory flush (once per turn) and a compaction when the context
 * is near the window. The flush is sent the pruned context, as the reply is; a failed flush is
 * reported and the turn goes on (turn-steps.ts).
 */
async function beforeSend(r: Round, o: TurnOptions, now: () => Date, emit: (e: ChatEvent) => void, systemTokens: number, flush: boolean): Promise<void> {
  const built = contextNow(r).context;
  const historyTokens = estimateTokens(built.messages);
  // Flush before compaction, once per turn at most (the flush itself is once per cycle).
  if (flush) await flushStep(r.steps, () => prunedNow(r, o, now).messages, historyTokens + systemTokens);
  const pre = shouldCompactBeforeSend({ contextWindow: r.contextWindow, settings: r.steps.compaction, historyTokens, systemTokens, promptTokens: 0 });
  if (pre.compact && (await tolerant(() => compactStep(r.steps, 'preflight'), 'preflight', emit, o.signal))) {
    r.result.compactions++;
    r.session.reload(); // the compaction appended its entry: the handle reads it
  }
}

/** After the final reply: trigger (a), the reply's usage says the context is near the window. */
async function afterReply(r: Round, o: TurnOptions, now: () => Date, emit: (e: ChatEvent) => void, usageTokens: number, estimate: number): Promise<void> {
  const after = shouldCompactAfterReply({ contextWindow: r.contextWindow, settings: r.steps.compaction, usageTokens, estimatedTokens: estimate });
  if (!after.compact) return;
  await flushStep(r.steps, () => prunedNow(r, o, now).messages, after.tokens);
  if (await tolerant(() => compactStep(r.steps, 'threshold'), 'threshold', emit, o.signal)) {
    r.result.compactions++;
    r.session.reload(); // keep the (possibly reused) handle in step with the file
  }
}

/** Run one user turn on the session file; returns the final reply. */
export async function runTurn(text: string, o: TurnOptions): Promise<ChatSendResult> {
  const now = o.now ?? (() => new Date());
  const emit = o.emit ?? (() => {});
  const manual = parseCompactCommand(text);
  const llm = o.llm;
  if (!llm && !manual) throw new EngineError('unavailable', 'no model configured');
  // A local model knows its window only once loaded; thresholds need it before the first call.
  if (!manual) await llm?.load?.(o.signal);
  const contextWindow = llm?.contextWindow ?? o.contextTokens;
  // SPEC defaults are sized for 200k windows; compaction/thresholds.ts scales the reserve, the
  // flush's soft threshold and the kept tail to a small window — the rule compact.plan uses too.
  const compaction = o.compaction;
  const steps: StepContext = {
    llm,
    file: o.file,
    sessionId: o.sessionId,
    sessionsIndex: o.sessionsIndex,
    compaction,
    contextWindow,
    workspace: o.workspace,
    writable: o.writable,
    timeZone: o.timeZone,
    system: o.system,
    now,
    signal: o.signal,
    emit,
  };
  const result: ChatSendResult = { sessionId: o.sessionId, reply: '', stopReason: 'stop', modelCalls: 0, toolCalls: 0, compactions: 0 };

  if (manual || !llm) {
    if (manual && (await compactStep(steps, 'manual', manual))) result.compactions++;
    emit({ kind: 'done', stopReason: 'stop' });
    return result;
  }

  // Not in the middle of an OpenClaw turn on the same session (bounded wait, util/openclaw-lock.ts).
  await waitForOpenClawIdle(o.file, { signal: o.signal });
  const session = o.session ?? openSessionFile(o.file, { now });
  const userEntry = session.appendMessage({ role: 'user', content: text, timestamp: now().getTime() });
  emit({ kind: 'turnStart', userEntryId: userEntry.id });
  const specs: ToolSpec[] = o.tools.map((t) => t.spec);
  const systemTokens = estimateTextTokens(o.system) + estimateTextTokens(JSON.stringify(specs));
  const r: Round = { llm, session, steps, specs, contextWindow, result };
  const maxRounds = o.maxToolRounds ?? MAX_TOOL_ROUNDS;

  for (let round = 0; ; round++) {
    if (o.signal?.aborted) throw cancelled();
    await beforeSend(r, o, now, emit, systemTokens, round === 0);
    const res = await callModel(r, o, now, emit);
    const { message, estimate } = await recordReply(r, res, o, now, emit, systemTokens);
    const calls = message.content.filter((b): b is ToolCallBlock => b.type === 'toolCall');
    if (calls.length) {
      for (const c of calls) emit({ kind: 'toolCall', id: c.id, name: c.name, arguments: c.arguments });
      result.toolCalls += calls.length;
      const limited = round + 1 >= maxRounds;
      // At the round limit the calls still get (error) results, so the file stays well-formed.
      await runTools(calls, limited ? [] : o.tools, session, o, now, emit, limited ? `not run: the turn reached its limit of ${maxRounds} tool rounds` : undefined);
      if (o.signal?.aborted) throw cancelled();
      if (!limited) continue;
    }
    result.reply = textOf(message);
    await afterReply(r, o, now, emit, res.usage.totalTokens, estimate);
    emit({ kind: 'done', stopReason: result.stopReason });
    return result;
  }
}
