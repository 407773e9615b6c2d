/**
 * Tool calls for local models whose chat template has no function calling (SmolLM2 and
 * other ChatML / plain templates). node-llama-cpp would fall back to its generic
 * `||call: name(params)` syntax, which a model never trained on it ignores (SmolLM2 rambles
 * on instead of calling). So for such models the tools are described in the system prompt
 * and the choice is forced with node-llama-cpp's JSON-schema grammars
 * (createGrammarForJsonSchema): `{"action": "<tool>", "arguments": {…}}` for a call, its
 * arguments checked by the tool's schema, or `{"action": "reply"}` followed by the answer
 * in plain text. The history is rendered in the same format, so the model sees its own
 * earlier calls.
 */
import type { ChatHistoryItem, ChatModelResponse, ChatWrapper, GbnfJsonSchema, LlamaGrammar } from 'node-llama-cpp';
import type { Message } from '../../../shared/types/messages';
import type { ToolSpec } from './types';
import { repairToolPairs, textOf } from './tool-pairs';
import { toGbnf } from './llama-convert';
import { contentText } from '../../../shared/text/content';

/**
 * True when the chat wrapper has a function-calling syntax of its own (Llama 3.1, Qwen,
 * Functionary, Mistral…), false when it only has node-llama-cpp's generic default
 * (`ChatWrapper.defaultSettings`, passed in so this module need not load node-llama-cpp).
 */
export function hasNativeFunctionCalling(wrapper: ChatWrapper, generic: ChatWrapper['settings']): boolean {
  return JSON.stringify(wrapper.settings.functions) !== JSON.stringify(generic.functions);
}

/** The grammar of the first step: which tool to call, or `reply`. Tiny, so cheap to sample. */
export function actionSchema(tools: ToolSpec[]): GbnfJsonSchema {
  return { type: 'object', properties: { action: { enum: [...tools.map((t) => t.name), REPLY] } } } as unknown as GbnfJsonSchema;
}

/** The grammar of the second step of a call: the tool's arguments object. */
export function argumentsSchema(tool: ToolSpec): GbnfJsonSchema {
  return toGbnf(tool.parameters) as GbnfJsonSchema;
}

const REPLY = 'reply';

/** The system prompt plus the answer format and the tools (the model cannot see them otherwise). */
export function grammarSystem(system: string | undefined, tools: ToolSpec[]): string {
  const list = tools.map((t) => `- ${t.name}: ${t.description} Arguments (JSON schema): ${JSON.stringify(t.parameters)}`).join('\n');
  // Format first, tools last, "respond with JSON": in trials SmolLM2 then calls a tool when
  // asked to; with the reply option described last it nearly always chose to reply.
  const format = [
    'Respond with JSON. To call a tool: {"action": "<tool name>", "arguments": {...}}; its result comes back in the next message.',
    'To answer the user without a tool: {"action": "reply"} followed by the answer.',
    'Tools:',
    list,
  ].join('\n');
  return system ? `${system}\n\n${format}` : format;
}

/** How the model's output to a call is written in the history, and the prefix step 2 continues. */
function callPrefix(name: string): string {
  return `{"action": ${JSON.stringify(name)}, "arguments": `;
}
const REPLY_PREFIX = `{"action": "${REPLY}"}\n`;

/** Our messages → a plain-text history in the tool format (calls as the model writes them). */
export function toGrammarHistory(system: string | undefined, messages: Message[], tools: ToolSpec[]): ChatHistoryItem[] {
  const out: ChatHistoryItem[] = [{ type: 'system', text: grammarSystem(system, tools) }];
  for (const m of repairToolPairs(messages)) {
    if (m.role === 'user') {
      const text = contentText(m.content, { image: '[image omitted]' });
      out.push({ type: 'user', text });
    } else if (m.role === 'assistant') {
      const parts: string[] = [];
      const text = contentText(m.content, { sep: '' });
      if (text) parts.push(REPLY_PREFIX + text);
      for (const b of m.content) if (b.type === 'toolCall') parts.push(`${callPrefix(b.name)}${JSON.stringify(b.arguments)}}`);
      if (parts.length) out.push({ type: 'model', response: [parts.join('\n')] });
    } else {
      out.push({ type: 'user', text: `Result of tool ${m.toolName}${m.isError ? ' (error)' : ''}:\n${textOf(m.content)}` });
    }
  }
  out.push({ type: 'model', response: [] });
  return out;
}

/** One generation step, as llama.ts runs it (its signal, context-shift guard and meter). */
export type GrammarStep = (
  history: ChatHistoryItem[],
  opts: { grammar?: LlamaGrammar | undefined; maxTokens?: number | undefined; onText?: ((text: string) => void) | undefined },
) => Promise<{ response: string; stopReason: string | undefined }>;

/** What a grammar-mode reply produced. */
export interface GrammarOutcome {
  text: string;
  call?: { name: string; arguments: Record<string, unknown> };
  /** node-llama-cpp's stop reason of the last step. */
  stopReason: string | undefined;
}

/**
 * One reply of a model without native function calling, in up to two steps:
 * 1. a tiny grammar picks the action, `{"action": "<tool>"|"reply"}` (skipped after tool
 *    results: then only a reply is allowed — one tool round per reply keeps a weak model
 *    from calling tools forever);
 * 2. a call continues `{"action": "<tool>", "arguments": ` under the tool's own argument
 *    schema; a reply is generated as free text, streamed as it comes, at full speed (a grammar
 *    over the whole reply made SmolLM2 several times slower per token).
 * A choice or a call that `maxTokens` cut off becomes a reply: returning nothing left the
 * user with an empty answer (seen in `cairn chat` with a small maxOutputTokens, where
 * SmolLM2 chose `memory_search` and its query did not fit).
 */
export async function grammarTurn(
  req: { system: string | undefined; messages: Message[]; tools: ToolSpec[]; maxTokens: number | undefined; onText: (t: string) => void },
  step: GrammarStep,
  grammar: (schema: GbnfJsonSchema) => Promise<LlamaGrammar>,
): Promise<GrammarOutcome> {
  const history = toGrammarHistory(req.system, req.messages, req.tools);
  const open = history[history.length - 1] as ChatModelResponse;
  const lastRole = req.messages[req.messages.length - 1]?.role;
  let action = REPLY;
  if (lastRole !== 'toolResult') {
    const r = await step(history, { grammar: await grammar(actionSchema(req.tools)), maxTokens: 24 });
    try {
      action = String((JSON.parse(r.response) as { action?: unknown }).action ?? REPLY);
    } catch {
      action = REPLY; // cut off while choosing: answer in text
    }
  }
  const tool = req.tools.find((t) => t.name === action);
  if (tool) {
    open.response = [callPrefix(tool.name)];
    const r = await step(history, { grammar: await grammar(argumentsSchema(tool)), maxTokens: req.maxTokens });
    try {
      const v = JSON.parse(r.response) as unknown;
      const args = v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
      return { text: '', call: { name: tool.name, arguments: args }, stopReason: r.stopReason };
    } catch {
      // The arguments did not fit maxTokens: no half-made call; answer in text instead.
    }
  }
  open.response = [REPLY_PREFIX];
  const r = await step(history, { maxTokens: req.maxTokens, onText: req.onText });
  return { text: r.response, stopReason: r.stopReason };
}
