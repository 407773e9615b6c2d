/**
 * Tool calls for local models whose chat template has no function calling (SmolLM2 and
 * other ChatML / plain templates). node-llama-cpp would fall back to its generic
 * `||call: name(params)` syntax, which a model never trained on it simply ignores (SmolLM2
 * rambles on instead of calling). So for such models every reply is constrained by a JSON-
 * schema grammar (node-llama-cpp's createGrammarForJsonSchema) to exactly one of
 *   {"tool": "<name>", "arguments": {…}}   — a call, its arguments checked by the tool's schema
 *   {"reply": "<text>"}                     — the answer, streamed as it is decoded
 * The tools are described in the system prompt, and the history is rendered in the same
 * JSON so the model sees its own earlier calls. After tool results only `reply` is allowed:
 * one tool round per reply, which keeps a weak model from calling tools forever (models
 * with native function calling keep the normal multi-round loop).
 */
import type { ChatHistoryItem, ChatWrapper, GbnfJsonSchema } from 'node-llama-cpp';
import type { Message } from '../../../shared/types/messages';
import type { ToolSpec } from './types';
import { repairToolPairs, textOf } from './tool-pairs';
import { toGbnf } from './llama-convert';

/**
 * True when the chat wrapper has a function-calling syntax of its own (Llama 3.1, Qwen,
 * Functionary, Mistral…), false when it only has node-llama-cpp's generic default
 * (`ChatWrapper.defaultSettings`, passed in so this module need not load node-llama-cpp).
 */
export function hasNativeFunctionCalling(wrapper: ChatWrapper, generic: ChatWrapper['settings']): boolean {
  return JSON.stringify(wrapper.settings.functions) !== JSON.stringify(generic.functions);
}

/** The JSON schema one constrained reply must match: a call of one of the tools, or a reply. */
export function grammarSchema(tools: ToolSpec[], allowTools: boolean): GbnfJsonSchema {
  const reply = { type: 'object', properties: { reply: { type: 'string' } } };
  if (!allowTools || !tools.length) return reply as GbnfJsonSchema;
  const calls = tools.map((t) => ({ type: 'object', properties: { tool: { const: t.name }, arguments: toGbnf(t.parameters) } }));
  return { oneOf: [...calls, reply] } as unknown as GbnfJsonSchema;
}

/** The system prompt plus the answer format and the tools (the model cannot see them otherwise). */
export function grammarSystem(system: string | undefined, tools: ToolSpec[]): string {
  const list = tools.map((t) => `- ${t.name}: ${t.description} Arguments (JSON schema): ${JSON.stringify(t.parameters)}`).join('\n');
  const format = [
    'Respond with JSON only.',
    'To call a tool: {"tool": "<name>", "arguments": {...}}. The result comes back in the next message.',
    'To answer the user: {"reply": "<your answer>"}.',
    'Tools:',
    list,
  ].join('\n');
  return system ? `${system}\n\n${format}` : format;
}

/** Our messages → a plain-text history in the grammar's JSON (calls and replies as the model writes them). */
export function toGrammarHistory(system: string | undefined, messages: Message[], tools: ToolSpec[]): ChatHistoryItem[] {
  const out: ChatHistoryItem[] = [{ type: 'system', text: grammarSystem(system, tools) }];
  for (const m of repairToolPairs(messages)) {
    if (m.role === 'user') {
      const text = typeof m.content === 'string' ? m.content : m.content.map((b) => (b.type === 'text' ? b.text : '[image omitted]')).join('\n');
      out.push({ type: 'user', text });
    } else if (m.role === 'assistant') {
      const parts: string[] = [];
      const text = m.content.filter((b) => b.type === 'text').map((b) => b.text).join('');
      if (text) parts.push(JSON.stringify({ reply: text }));
      for (const b of m.content) if (b.type === 'toolCall') parts.push(JSON.stringify({ tool: b.name, arguments: b.arguments }));
      if (parts.length) out.push({ type: 'model', response: [parts.join('\n')] });
    } else {
      out.push({ type: 'user', text: `Result of tool ${m.toolName}${m.isError ? ' (error)' : ''}:\n${textOf(m.content)}` });
    }
  }
  out.push({ type: 'model', response: [] });
  return out;
}

/** What the constrained output said: a call, or reply text (partial when generation stopped early). */
export type GrammarOutput = { kind: 'call'; name: string; arguments: Record<string, unknown> } | { kind: 'reply'; text: string };

/**
 * Decodes the `reply` string while its JSON is still being generated, so the answer
 * streams like any other model's. Feed raw chunks; each call returns the newly decoded text.
 */
export class ReplyStream {
  private raw = '';
  private emitted = 0;

  push(chunk: string): string {
    this.raw += chunk;
    const text = this.decoded();
    if (text === undefined || text.length <= this.emitted) return '';
    const delta = text.slice(this.emitted);
    this.emitted = text.length;
    return delta;
  }

  /** The reply decoded so far; undefined when the output is not a reply. */
  decoded(): string | undefined {
    const m = /^\s*\{\s*"reply"\s*:\s*"/.exec(this.raw);
    if (!m) return undefined;
    const body = this.raw.slice(m[0].length);
    let end = 0;
    // Up to the closing quote, or to the last complete character (never half an escape).
    for (let i = 0; i < body.length; i++) {
      const c = body[i];
      if (c === '"') break;
      if (c === '\\') {
        const len = body[i + 1] === 'u' ? 6 : 2;
        if (i + len > body.length) break;
        i += len - 1;
      }
      end = i + 1;
    }
    try {
      return JSON.parse(`"${body.slice(0, end)}"`) as string;
    } catch {
      return undefined;
    }
  }
}

/** Parse the whole constrained output; a cut-off reply keeps what was decoded. */
export function parseGrammarOutput(raw: string): GrammarOutput {
  try {
    const v = JSON.parse(raw) as { tool?: unknown; arguments?: unknown; reply?: unknown };
    if (typeof v.tool === 'string') {
      const args = v.arguments && typeof v.arguments === 'object' && !Array.isArray(v.arguments) ? (v.arguments as Record<string, unknown>) : {};
      return { kind: 'call', name: v.tool, arguments: args };
    }
    if (typeof v.reply === 'string') return { kind: 'reply', text: v.reply };
  } catch {
    // Stopped by maxTokens or an abort mid-JSON: fall through.
  }
  const s = new ReplyStream();
  s.push(raw);
  return { kind: 'reply', text: s.decoded() ?? '' };
}
