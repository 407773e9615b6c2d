/**
 * The memory flush turn (SPEC §5): a silent agentic turn before compaction in which the model
 * may read workspace files and append durable notes to today's daily note. A small tool loop
 * over the LLM interface; a reply of NO_REPLY is not shown to the user.
 */
import type { Message, ToolResultMessage } from '../../../shared/types/messages';
import type { MemoryFlushSettings } from '../config/schema';
import type { LLM } from '../llm/types';
import { FLUSH_TOOL_SPECS, flushToolRunner, todayIn } from './flush-tools';
import { contentText } from '../../../shared/text/content';

export const MAX_FLUSH_ROUNDS = 8;
const NO_REPLY = /^\s*NO_REPLY\s*$/i;

/** True when a reply is the silent token (SPEC §5). */
export function isNoReply(text: string): boolean {
  return NO_REPLY.test(text);
}

export interface FlushTurnOptions {
  llm: LLM;
  /** The session's context (after pruning), which the flush turn continues. */
  messages: readonly Message[];
  settings: MemoryFlushSettings;
  workspace: string;
  /** IANA zone for "today" (agents.defaults.userTimezone); the system's when absent. */
  timeZone?: string | undefined;
  now: Date;
  /** The clock of the turn's later messages (tool results); `now` when absent. Never the system's behind the caller's back. */
  clock?: (() => Date) | undefined;
  /** The agent's own system prompt; the flush prompt is added after it. */
  baseSystemPrompt?: string | undefined;
  signal?: AbortSignal | undefined;
  maxRounds?: number;
}

export interface FlushTurnResult {
  date: string;
  /** The model's final text. */
  reply: string;
  /** True when the reply is NO_REPLY (or empty): nothing to show the user. */
  silent: boolean;
  rounds: number;
  /** Tool calls made, with their outcome. */
  toolCalls: { name: string; path: string; isError: boolean; result: string }[];
  /** The messages of the turn (user prompt, assistant replies, tool results). */
  turn: Message[];
  /** True when the loop hit maxRounds before the model stopped calling tools. */
  exhausted: boolean;
}

const withDate = (s: string, date: string) => s.replaceAll('YYYY-MM-DD', date);

/** Run the flush turn. Throws only for an abort or a model error. */
export async function runFlushTurn(opts: FlushTurnOptions): Promise<FlushTurnResult> {
  const date = todayIn(opts.now, opts.timeZone);
  const tools = flushToolRunner(opts.workspace, date);
  const flushSystem = withDate(opts.settings.systemPrompt, date);
  const system = opts.baseSystemPrompt ? `${opts.baseSystemPrompt}\n\n${flushSystem}` : flushSystem;
  const turn: Message[] = [{ role: 'user', content: withDate(opts.settings.prompt, date), timestamp: opts.now.getTime() }];
  const toolCalls: FlushTurnResult['toolCalls'] = [];
  const max = opts.maxRounds ?? MAX_FLUSH_ROUNDS;
  let reply = '';
  let rounds = 0;
  let exhausted = true;
  while (rounds < max) {
    opts.signal?.throwIfAborted();
    rounds++;
    const res = await opts.llm.chat({ system, messages: [...opts.messages, ...turn], tools: FLUSH_TOOL_SPECS, signal: opts.signal });
    turn.push(res.message);
    const calls = res.message.content.filter((b) => b.type === 'toolCall');
    reply = contentText(res.message.content, { sep: '' });
    if (calls.length === 0) {
      exhausted = false;
      break;
    }
    for (const c of calls) {
      if (c.type !== 'toolCall') continue;
      const out = tools.run(c.name, c.arguments ?? {});
      toolCalls.push({ name: c.name, path: String((c.arguments as { path?: unknown })?.path ?? ''), isError: out.isError, result: out.text });
      const tr: ToolResultMessage = {
        role: 'toolResult',
        toolCallId: c.id,
        toolName: c.name,
        content: [{ type: 'text', text: out.text }],
        isError: out.isError,
        timestamp: (opts.clock?.() ?? opts.now).getTime(),
      };
      turn.push(tr);
    }
  }
  return { date, reply, silent: reply.trim() === '' || isNoReply(reply), rounds, toolCalls, turn, exhausted };
}
