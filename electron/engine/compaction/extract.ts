/**
 * The deterministic extract (SPEC §4 "Beyond"): when no model is available or it failed, the
 * old part is reduced to what matters without one — the user's asks, decisions, TODO lines,
 * constraints and every identifier — under the same headings as a model summary, and marked
 * as an extract. It sees tool results as the summariser would (cut at 2,000 chars), so its
 * cost stays bounded on huge transcripts.
 */
import type { Message } from '../../../shared/types/messages';
import { SUMMARY_MAX_CHARS } from './prompt';
import { dropContained, findIdentifiers } from './identifiers';
import { TOOL_RESULT_MAX_CHARS } from './serialize';

const LINE_MAX = 300;
const DECISION = /\b(decided|decide|decision|agreed|agree to|we will|we'll|going with|go with|chose|choose|settled on|instead of|let's|switch(?:ed)? to)\b/i;
const TODO = /\b(TODO|FIXME|to-?do|next steps?|follow[- ]up|remaining|still need|later)\b|^\s*[-*]\s*\[ \]/i;
const CONSTRAINT = /\b(must|never|always|do not|don't|should not|shouldn't|only|required?|prefer)\b/i;

function textOf(m: Message): string {
  if (typeof m.content === 'string') return m.content;
  const out: string[] = [];
  for (const b of m.content) if (b.type === 'text') out.push(b.text);
  return out.join('\n');
}

function clip(s: string, max = LINE_MAX): string {
  const one = s.replace(/\s+/g, ' ').trim();
  return one.length > max ? `${one.slice(0, max - 1)}…` : one;
}

/** Split into sentence-ish lines: newlines, then sentence ends. */
function lines(text: string): string[] {
  const out: string[] = [];
  for (const l of text.split('\n')) {
    const t = l.trim();
    if (!t) continue;
    if (t.length <= LINE_MAX) out.push(t);
    else for (const s of t.split(/(?<=[.!?])\s+/)) if (s.trim()) out.push(s.trim());
  }
  return out;
}

/** Add `items` as "- item" lines under `heading` while they fit in `budget` chars. */
function section(heading: string, items: string[], budget: number): string {
  let out = `${heading}\n`;
  let shown = 0;
  for (const it of items) {
    const line = `- ${it}\n`;
    if (out.length + line.length > budget) break;
    out += line;
    shown++;
  }
  if (items.length === 0) out += '- (none)\n';
  else if (shown < items.length) out += `- (+${items.length - shown} more not shown)\n`;
  return out;
}

export interface ExtractInput {
  messages: readonly Message[];
  /** Estimated tokens of `messages`. */
  tokens: number;
  previousSummary?: string | undefined;
  /** Why there is no model summary (shown in the extract's first line). */
  reason: string;
  maxChars?: number;
}

/** Build the extract. Always returns text within `maxChars` (default 16,000). */
export function buildExtract(input: ExtractInput): string {
  const max = input.maxChars ?? SUMMARY_MAX_CHARS;
  const asks: string[] = [];
  const decisions: string[] = [];
  const todos: string[] = [];
  const constraints: string[] = [];
  const ids = new Set<string>();
  const seen = new Map<string[], Set<string>>();
  const push = (list: string[], s: string) => {
    const c = clip(s);
    let set = seen.get(list);
    if (!set) seen.set(list, (set = new Set()));
    if (!set.has(c)) {
      set.add(c);
      list.push(c);
    }
  };
  if (input.previousSummary) findIdentifiers(input.previousSummary, ids);
  for (const m of input.messages) {
    if (m.role === 'toolResult') {
      findIdentifiers(textOf(m).slice(0, TOOL_RESULT_MAX_CHARS), ids);
      continue;
    }
    const text = textOf(m);
    if (m.role === 'assistant') {
      for (const b of m.content) if (b.type === 'toolCall') findIdentifiers(JSON.stringify(b.arguments ?? {}), ids);
    }
    if (!text) continue;
    findIdentifiers(text, ids);
    if (m.role === 'user') push(asks, text);
    for (const l of lines(text)) {
      if (TODO.test(l)) push(todos, l);
      else if (DECISION.test(l)) push(decisions, l);
      else if (m.role === 'user' && CONSTRAINT.test(l)) push(constraints, l);
    }
  }
  const idList = dropContained(ids);
  const head = `[Extract: no model summary (${input.reason}). ${input.messages.length} messages (~${input.tokens} tokens) compacted into the lines below, copied from the conversation.]\n\n`;
  // Budgets: identifiers get what the other sections leave, but never less than a quarter.
  const prev = input.previousSummary ? `## Previous summary\n${input.previousSummary.trim()}\n` : '';
  const prevBudget = Math.min(prev.length, Math.floor(max * 0.3));
  const rest = max - head.length - prevBudget - 16;
  const asksS = section('## Pending user asks', asks.slice(-40), Math.floor(rest * 0.22));
  const decS = section('## Decisions', decisions, Math.floor(rest * 0.14));
  const todoS = section('## Open TODOs', todos, Math.floor(rest * 0.14));
  const conS = section('## Constraints/Rules', constraints, Math.floor(rest * 0.1));
  const used = asksS.length + decS.length + todoS.length + conS.length;
  const idS = section('## Exact identifiers', idList, Math.max(Math.floor(rest * 0.25), rest - used));
  let prevS = '';
  if (prev) prevS = prev.length <= prevBudget ? prev : `${prev.slice(0, prevBudget - 40)}\n[previous summary cut here]\n`;
  const out = `${head}${decS}\n${todoS}\n${conS}\n${asksS}\n${idS}${prevS ? `\n${prevS}` : ''}`.trimEnd();
  return out.length <= max ? out : out.slice(0, max);
}
