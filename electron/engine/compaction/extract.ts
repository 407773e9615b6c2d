/**
 * The deterministic extract (SPEC §4 "Beyond"): when no model is available or it failed, the
 * old part is reduced to what matters without one — the user's asks, decisions, TODO lines,
 * constraints and every identifier — under the same headings as a model summary, and marked
 * as an extract. It sees tool results as the summariser would (cut at 2,000 chars), so its
 * cost stays bounded on huge transcripts.
 *
 * A previous summary (a model's or an earlier extract) is carried forward section by section:
 * its Decisions, TODOs, Constraints, asks and identifiers come first under the same headings,
 * merged with the new part's and deduplicated; what it holds under other
 * headings is kept under `## Earlier notes`. Instructions are followed where an extract can
 * (instructions.ts) and the rest is refused in a visible note. Every text is redacted before
 * it is read, so no secret reaches the summary (which is later sent to a model).
 */
import type { Message } from '../../../shared/types/messages';
import { redactSecrets } from '../util/redact';
import { SUMMARY_MAX_CHARS } from './prompt';
import { dropContained, findIdentifiers } from './identifiers';
import { findExtraIdentifiers, identifierClass, interpretInstructions, type ExtractInstructions } from './instructions';
import { itemKey, parseSummary, SECTIONS, type SectionKey } from './sections';
import { TOOL_RESULT_MAX_CHARS } from './serialize';
import { contentText } from '../../../shared/text/content';

const LINE_MAX = 300;
const DECISION = /\b(decided|decide|decision|agreed|agree to|we will|we'll|going with|go with|chose|choose|settled on|instead of|let's|switch(?:ed)? to)\b/i;
const TODO = /\b(TODO|FIXME|to-?do|next steps?|follow[- ]up|remaining|still need|later)\b|^\s*[-*]\s*\[ \]/i;
const CONSTRAINT = /\b(must|never|always|do not|don't|should not|shouldn't|only|required?|prefer)\b/i;

const textOf = (m: Message): string => contentText(m.content);

/**
 * What a line of the conversation is to the extract: an open TODO, a decision, or (said by the
 * user) a constraint — the same rules the extract files it by (the compaction audit reuses them).
 */
export function classifyLine(line: string, role: string): 'todos' | 'decisions' | 'constraints' | undefined {
  if (TODO.test(line)) return 'todos';
  if (DECISION.test(line)) return 'decisions';
  if (role === 'user' && CONSTRAINT.test(line)) return 'constraints';
  return undefined;
}

/** The five headings, as the summary format writes them (sections.ts). */
const HEADING = Object.fromEntries(SECTIONS.map((s) => [s.key, s.heading])) as Record<SectionKey, string>;

function clip(s: string, max = LINE_MAX): string {
  const one = s.replace(/\s+/g, ' ').trim();
  return one.length > max ? `${one.slice(0, max - 1)}…` : one;
}

/** Split into sentence-ish lines: newlines, then sentence ends. */
export function sentenceLines(text: string): string[] {
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

/** Ordered, deduplicated lists: an item already listed (in any spelling) is not added again. */
class Lists {
  readonly items: Record<SectionKey | 'focus', string[]> = { decisions: [], todos: [], constraints: [], asks: [], identifiers: [], focus: [] };
  private readonly seen = new Map<string, Set<string>>();
  push(key: SectionKey | 'focus', s: string): void {
    const c = clip(s);
    let set = this.seen.get(key);
    if (!set) this.seen.set(key, (set = new Set()));
    const k = itemKey(c);
    if (k && !set.has(k)) {
      set.add(k);
      this.items[key].push(c);
    }
  }
}

export interface ExtractInput {
  messages: readonly Message[];
  /** Estimated tokens of `messages`. */
  tokens: number;
  previousSummary?: string | undefined;
  /** Why there is no model summary (shown in the extract's first line). */
  reason: string;
  maxChars?: number;
  /** customInstructions and a manual /compact's instructions. */
  instructions?: readonly (string | undefined)[] | undefined;
}

/** How the extract treats `instructions` (for the dry run and the entry's details). */
export function extractInstructions(instructions: readonly (string | undefined)[] | undefined): ExtractInstructions {
  return interpretInstructions(...(instructions ?? []));
}

/** Build the extract. Always returns text within `maxChars` (default 16,000). */
export function buildExtract(input: ExtractInput): string {
  const max = input.maxChars ?? SUMMARY_MAX_CHARS;
  const how = extractInstructions(input.instructions);
  const lists = new Lists();
  const ids = new Set<string>();
  const other: string[] = [];
  const focusHit = (l: string) => how.focus.length > 0 && how.focus.some((w) => l.toLowerCase().includes(w));
  const findIds = (text: string) => {
    findIdentifiers(text, ids);
    findExtraIdentifiers(text, how.classes, ids);
  };

  // The previous summary first: what it says is older than anything in the new part.
  if (input.previousSummary) {
    const prev = redactSecrets(input.previousSummary);
    const parsed = parseSummary(prev);
    for (const { key } of SECTIONS) {
      for (const item of parsed.sections[key]) {
        if (key === 'identifiers') ids.add(/^`[^`]+`$/.test(item) ? item.slice(1, -1) : item);
        else lists.push(key, item);
        if (key !== 'identifiers' && focusHit(item)) lists.push('focus', item);
      }
    }
    other.push(...parsed.other);
    findIds(prev);
  }
  for (const m of input.messages) {
    if (m.role === 'toolResult') {
      findIds(redactSecrets(textOf(m).slice(0, TOOL_RESULT_MAX_CHARS)));
      continue;
    }
    const text = redactSecrets(textOf(m));
    if (m.role === 'assistant') {
      for (const b of m.content) if (b.type === 'toolCall') findIds(redactSecrets(JSON.stringify(b.arguments ?? {})));
    }
    if (!text) continue;
    findIds(text);
    if (m.role === 'user') lists.push('asks', text);
    for (const l of sentenceLines(text)) {
      if (focusHit(l)) lists.push('focus', l);
      const kind = classifyLine(l, m.role);
      if (kind) lists.push(kind, l);
    }
  }
  let idList = dropContained(ids);
  // Requested classes first, so a budget cut never drops what the user asked to keep.
  if (how.classes.length) idList = [...idList.filter((i) => how.classes.includes(identifierClass(i))), ...idList.filter((i) => !how.classes.includes(identifierClass(i)))];

  const carried = input.previousSummary ? ' The previous summary is carried forward: its items come first under each heading.' : '';
  const head = `[Extract: no model summary (${input.reason}). ${input.messages.length} messages (~${input.tokens} tokens) compacted into the lines below, copied from the conversation.${carried}]\n${how.note ? `[${how.note}]\n` : ''}\n`;
  const { items } = lists;
  const rest = max - head.length - 32;
  const focusS = how.focus.length ? `${section(`## Focus: ${how.focus.join(', ')}`, items.focus, Math.floor(rest * 0.12))}\n` : '';
  const otherS = other.length ? `\n${section('## Earlier notes', other.map((o) => clip(o)), Math.floor(rest * 0.08))}` : '';
  const fixed = rest - focusS.length - otherS.length;
  const asksS = section(HEADING.asks, items.asks.slice(-40), Math.floor(fixed * 0.2));
  const decS = section(HEADING.decisions, items.decisions, Math.floor(fixed * 0.18));
  const todoS = section(HEADING.todos, items.todos, Math.floor(fixed * 0.16));
  const conS = section(HEADING.constraints, items.constraints, Math.floor(fixed * 0.12));
  const used = asksS.length + decS.length + todoS.length + conS.length;
  // Identifiers get what the other sections leave, but never less than a quarter.
  const idS = section(HEADING.identifiers, idList, Math.max(Math.floor(fixed * 0.25), fixed - used));
  const out = `${head}${focusS}${decS}\n${todoS}\n${conS}\n${asksS}\n${idS}${otherS}`.trimEnd();
  return out.length <= max ? out : out.slice(0, max);
}
