/**
 * Collecting what a compacted part said for the audit (audit.ts): identifiers with the first
 * place each was said and how often, and the asks, TODOs and decisions the kept text does not
 * reflect — from the earlier summary the compaction replaced and from the compacted messages.
 */
import type { LostIdentifier, LostItem, SaidAt } from '../../../shared/types/audit';
import type { CompactionEntry } from '../transcript/types';
import { itemKept, type KeptCorpus } from './audit-keep';
import { classifyLine, sentenceLines } from './extract';
import { findIdentifiers } from './identifiers';
import { parseSummary } from './sections';
import { redactSecrets } from '../util/redact';

/** One text of the compacted part and where it was said. */
export interface Said {
  text: string;
  role: string;
  /** A tool call's arguments rather than the message's text. */
  call?: boolean | undefined;
  at: SaidAt;
}

type ItemKind = 'asks' | 'todos' | 'decisions';

/** `s` on one line, cut to `max` characters. */
export const clip = (s: string, max: number): string => {
  const one = s.replace(/\s+/g, ' ').trim();
  return one.length > max ? `${one.slice(0, max - 1)}…` : one;
};

/** The text around the first `needle` of `text` (≤ 200 characters). */
export function excerptAround(text: string, needle: string): string {
  const i = text.indexOf(needle);
  if (i < 0) return clip(text, 200);
  const from = Math.max(0, i - 90);
  return `${from > 0 ? '…' : ''}${clip(text.slice(from, i + needle.length + 90), 198)}`;
}

/**
 * The TODOs and decisions of one line, each as the sentences from the one its marker is in up
 * to the next item's: "…the ticket is OPS-2231. TODO: get the rollback approved." is the
 * TODO "TODO: get the rollback approved." — judged as the whole line, the sentence before it
 * (kept by the summary) made a dropped TODO count as kept. A line no single sentence of
 * which is an item (its marker spans a sentence end) stays whole.
 */
function lineItems(line: string, role: string): { kind: 'todos' | 'decisions'; text: string }[] {
  const whole = classifyLine(line, role);
  if (whole !== 'todos' && whole !== 'decisions') return [];
  const out: { kind: 'todos' | 'decisions'; text: string }[] = [];
  for (const sentence of line.split(/(?<=[.!?])\s+/)) {
    const kind = classifyLine(sentence, role);
    const last = out[out.length - 1];
    if (kind === 'todos' || kind === 'decisions') out.push({ kind, text: sentence });
    else if (last) last.text += ` ${sentence}`; // a sentence that goes on with the item before it
  }
  return out.length ? out : [{ kind: whole, text: line }];
}

export class LostCollector {
  readonly ids = new Map<string, LostIdentifier>();
  readonly items: Record<ItemKind, LostItem[]> = { asks: [], todos: [], decisions: [] };
  private readonly seen = new Set<string>();

  constructor(private readonly corpus: KeptCorpus) {}

  /** Count an identifier (its first place wins). */
  note(value: string, at: () => SaidAt): void {
    const hit = this.ids.get(value);
    if (hit) hit.mentions++;
    else this.ids.set(value, { value, at: at(), mentions: 1 });
  }

  /** An ask/TODO/decision, listed when the kept text does not reflect it. */
  item(kind: ItemKind, text: string, at: SaidAt): void {
    const key = `${kind}:${text.toLowerCase()}`;
    if (this.seen.has(key) || itemKept(text, this.corpus)) return;
    this.seen.add(key);
    this.items[kind].push({ text: clip(text, 300), at: { ...at, excerpt: clip(text, 200) } });
  }

  /** What the earlier summary carried: its identifiers and its asks, TODOs and decisions. */
  fromSummary(prev: CompactionEntry, at: SaidAt): void {
    const text = redactSecrets(typeof prev.summary === 'string' ? prev.summary : '');
    const parsed = parseSummary(text);
    const found = findIdentifiers(text);
    for (const item of parsed.sections.identifiers) for (const part of item.split(/,\s*/)) if (/^`[^`]+`$/.test(part.trim())) found.add(part.trim().slice(1, -1));
    for (const v of found) this.note(v, () => ({ ...at, excerpt: excerptAround(text, v) }));
    for (const kind of ['asks', 'todos', 'decisions'] as const) for (const item of parsed.sections[kind]) this.item(kind, item, at);
  }

  /**
   * The compacted messages: every identifier; TODO and decision lines (classified as the
   * extract classifies them); open asks — a user message no assistant text answered before the
   * next one or the cut.
   */
  fromSaid(said: readonly Said[]): void {
    let pending: Said | undefined;
    for (const s of said) {
      for (const v of findIdentifiers(s.text)) this.note(v, () => ({ ...s.at, excerpt: excerptAround(s.text, v) }));
      if (s.role === 'toolResult' || s.call) continue;
      if (s.role === 'user') {
        if (pending) this.item('asks', pending.text, pending.at);
        pending = s;
      } else if (s.role === 'assistant' && s.text.trim()) pending = undefined;
      for (const l of sentenceLines(s.text)) for (const it of lineItems(l, s.role)) this.item(it.kind, it.text, s.at);
    }
    if (pending) this.item('asks', pending.text, pending.at);
  }
}
