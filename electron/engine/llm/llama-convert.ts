/**
 * Our transcript messages → node-llama-cpp chat history. node-llama-cpp keeps a tool call's
 * result inside the model response that made the call, and one model turn spans every
 * call/result round until the next user message — so consecutive assistant messages (with
 * their toolResults) fold into one `model` item. Images cannot be sent to a text model and
 * become a short note; thinking becomes a `thought` segment.
 */
import type { ChatHistoryItem, ChatModelFunctionCall, ChatModelFunctions, ChatModelResponse, ChatModelSegment } from 'node-llama-cpp';
import type { Message, ToolResultMessage } from '../../../shared/types/messages';
import type { ToolSpec } from './types';
import { repairToolPairs, textOf } from './tool-pairs';
import { contentText } from '../../../shared/text/content';

function toolResultValue(m: ToolResultMessage): unknown {
  const text = textOf(m.content);
  const images = m.content.filter((b) => b.type === 'image').length;
  const note = images ? `${text ? '\n' : ''}[${images} image(s) omitted: this model reads text only]` : '';
  return m.isError ? { error: text + note } : text + note;
}

/**
 * Build the history for `LlamaChat.generateResponse`. It always ends with a `model` item:
 * an empty one after a user message (a new reply), or the open turn whose tool results just
 * arrived (the model continues it).
 */
export function toLlamaHistory(system: string | undefined, messages: Message[]): ChatHistoryItem[] {
  const out: ChatHistoryItem[] = [];
  if (system) out.push({ type: 'system', text: system });
  let model: ChatModelResponse | undefined;
  const calls = new Map<string, ChatModelFunctionCall>();
  for (const m of repairToolPairs(messages)) {
    if (m.role === 'user') {
      model = undefined;
      const text = contentText(m.content, { image: '[image omitted]' });
      out.push({ type: 'user', text });
    } else if (m.role === 'assistant') {
      if (!model) out.push((model = { type: 'model', response: [] }));
      let first = true;
      for (const b of m.content) {
        if (b.type === 'text') model.response.push(b.text);
        else if (b.type === 'thinking') {
          const seg: ChatModelSegment = { type: 'segment', segmentType: 'thought', text: b.thinking, ended: true };
          model.response.push(seg);
        } else {
          const call: ChatModelFunctionCall = { type: 'functionCall', name: b.name, params: b.arguments, result: undefined };
          // Calls made together form one chunk (parallel calling in wrappers that support it).
          if (first) call.startsNewChunk = true;
          first = false;
          calls.set(b.id, call);
          model.response.push(call);
        }
      }
    } else {
      const call = calls.get(m.toolCallId);
      if (call) call.result = toolResultValue(m);
    }
  }
  const last = out[out.length - 1];
  if (!last || last.type !== 'model') out.push({ type: 'model', response: [] });
  return out;
}

/** JSON-Schema keywords node-llama-cpp's grammar understands; others are dropped. */
const KEEP = new Set(['type', 'properties', 'required', 'items', 'enum', 'const', 'oneOf', 'description', 'additionalProperties', 'minItems', 'maxItems', 'format']);

/** A JSON schema reduced to the keywords node-llama-cpp's grammar supports. */
export function toGbnf(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(toGbnf);
  if (!schema || typeof schema !== 'object') return schema;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(schema as Record<string, unknown>)) {
    if (!KEEP.has(k)) continue;
    if (k === 'properties' && v && typeof v === 'object') {
      out[k] = Object.fromEntries(Object.entries(v as Record<string, unknown>).map(([p, s]) => [p, toGbnf(s)]));
    } else if (k === 'items' || k === 'oneOf' || (k === 'additionalProperties' && typeof v === 'object')) out[k] = toGbnf(v);
    else out[k] = v;
  }
  return out;
}

/** Our tool specs → node-llama-cpp function definitions (grammar-constrained params). */
export function toLlamaFunctions(tools: ToolSpec[] | undefined): ChatModelFunctions | undefined {
  if (!tools?.length) return undefined;
  const fns: Record<string, { description: string; params: never }> = {};
  for (const t of tools) fns[t.name] = { description: t.description, params: toGbnf(t.parameters) as never };
  return fns;
}
