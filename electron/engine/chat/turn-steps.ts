/**
 * The side steps of a turn, each a call into H1's modules: compaction (any trigger) and the
 * memory flush, reported as chat events. Kept apart from the loop so turn.ts reads as the
 * SPEC's sequence.
 */
import type { Message } from '../../../shared/types/messages';
import type { ChatEvent } from '../../../shared/types/chat';
import type { CompactionSettings } from '../config/schema';
import type { LLM } from '../llm/types';
import { compact } from '../compaction/compact';
import { maybeRunMemoryFlush } from '../compaction/flush';
import { errorMessage } from '../core/errors';
import { isAbortError } from '../util/abort';

/** What the side steps need to know about the turn. */
export interface StepContext {
  /** Absent only for a manual compaction without a model (the extract is written). */
  llm: LLM | undefined;
  file: string;
  sessionId: string;
  sessionsIndex: string;
  compaction: CompactionSettings;
  contextWindow: number;
  workspace: string;
  writable: boolean;
  timeZone?: string | undefined;
  system: string;
  now: () => Date;
  signal?: AbortSignal | undefined;
  emit: (e: ChatEvent) => void;
}

type Trigger = 'threshold' | 'preflight' | 'overflow' | 'manual';

/** Run a compaction and report it; true when an entry was written. */
export async function compactStep(c: StepContext, trigger: Trigger, extra: { instructions?: string | undefined; all?: boolean } = {}): Promise<boolean> {
  const res = await compact({
    file: c.file,
    settings: c.compaction,
    contextWindowTokens: c.contextWindow,
    llm: c.llm,
    trigger,
    instructions: extra.instructions,
    all: extra.all,
    signal: c.signal,
    now: c.now,
    sessionIndex: { file: c.sessionsIndex, sessionId: c.sessionId },
  });
  if (!res.compacted) {
    c.emit({ kind: 'compaction', trigger, compacted: false, reason: res.reason });
    return false;
  }
  c.emit({ kind: 'compaction', trigger, compacted: true, tokensBefore: res.tokensBefore, tokensAfter: res.tokensAfter, extract: res.extract, entryId: res.entry.id });
  return true;
}

/**
 * Run the memory flush when it is due (H1's decision); report only when it ran or failed.
 * `messages` gives what the model is sent (pruned, as for every other call; asked only when
 * the flush runs). A flush is
 * maintenance the turn can live without (OpenClaw: "a failure … does not reset the session"):
 * a model error, a daily note that cannot be written, is reported as a `flush` event with a
 * `warning` naming what failed, the turn goes on, and — since compaction/flush.ts records only
 * a flush that did its job — the next turn of the same cycle tries again. Only a cancel stops
 * the turn. True when the flush ran and was recorded.
 */
export async function flushStep(c: StepContext, messages: () => readonly Message[], projectedTokens: number): Promise<boolean> {
  if (!c.llm) return false;
  try {
    return await runFlush(c, c.llm, messages, projectedTokens);
  } catch (err) {
    if (isAbortError(err, c.signal)) throw err;
    const warning = `the memory flush failed: ${errorMessage(err)}. The reply goes on; the flush runs again at the next turn.`;
    c.emit({ kind: 'flush', ran: false, reason: 'failed', wrote: [], warning });
    return false;
  }
}

async function runFlush(c: StepContext, llm: LLM, messages: () => readonly Message[], projectedTokens: number): Promise<boolean> {
  const r = await maybeRunMemoryFlush({
    llm,
    settings: c.compaction,
    contextWindow: c.contextWindow,
    projectedTokens,
    transcriptFile: c.file,
    sessionIndex: { file: c.sessionsIndex, sessionId: c.sessionId },
    workspace: c.workspace,
    writable: c.writable,
    messages,
    timeZone: c.timeZone,
    baseSystemPrompt: c.system,
    now: c.now,
    signal: c.signal,
  });
  if (!r.ran) return false;
  const wrote = [...new Set(r.result.toolCalls.filter((t) => t.name === 'write' && !t.isError).map((t) => t.path))];
  if (r.noteFailed) {
    const warning = `the memory flush could not write ${r.noteFailed}. The reply goes on; the flush runs again at the next turn.`;
    c.emit({ kind: 'flush', ran: true, reason: r.decision.reason, wrote, warning });
    return false;
  }
  c.emit({ kind: 'flush', ran: true, reason: r.decision.reason, wrote });
  return true;
}

/** `/compact [--all] [instructions]` → what to do, or undefined for a normal message. */
export function parseCompactCommand(text: string): { instructions?: string; all: boolean } | undefined {
  const m = /^\s*\/compact(?:\s+([\s\S]*))?$/.exec(text);
  if (!m) return undefined;
  let rest = (m[1] ?? '').trim();
  let all = false;
  if (/^--all\b/.test(rest)) {
    all = true;
    rest = rest.replace(/^--all\b\s*/, '');
  }
  return rest ? { instructions: rest, all } : { all };
}
