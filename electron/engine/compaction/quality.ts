/**
 * Judging what a model returned as a compaction summary. Weak local models
 * fail in a few recognisable ways: nothing at all, the same line over and over, no summary
 * structure, or simply carrying on the conversation ("Sure! Here is the fix…") as if the
 * transcript were addressed to them. Such a text must not replace the history it stands for:
 * compaction asks again once and then falls back to the deterministic extract, recording why.
 */
import { parseSummary } from './sections';

export type SummaryFault = 'empty' | 'repeated' | 'continues-conversation' | 'no-headings' | 'no-content';

export type SummaryVerdict = { ok: true } | { ok: false; fault: SummaryFault; reason: string };

const MIN_CHARS = 20;
// Openers of a reply to the user, not of a summary.
const CHAT_OPENER = /^(?:sure|certainly|of course|absolutely|okay|ok|great|yes|no problem|thanks|thank you|hello|hi|hey|i(?:'ll| will| am|'m| can| have|'ve)|let me|let's|here(?:'s| is) (?:the|my|a|your) (?:fix|code|answer|updated|patch|change|solution)|done[.!])\b/i;
// A transcript imitation: the model wrote the next turn in the serialised format.
const ROLE_TAG = /^\s*\[(?:User|Assistant|Tool result|Assistant tool calls)\]:/m;

/** Share of repeated lines/sentences, and whether some span repeats back to back. */
function repetition(text: string): { share: number; parts: number; loop: boolean } {
  const parts = text
    .split(/\n+|(?<=[.!?])\s+/)
    .map((p) => p.replace(/^[-*\d.)\s#]+/, '').trim().toLowerCase())
    .filter((p) => p.length >= 8 && !/^\(?none\)?\.?$/.test(p));
  const unique = new Set(parts).size;
  return { share: parts.length ? 1 - unique / parts.length : 0, parts: parts.length, loop: loops(text) };
}

/**
 * "abc abc abc abc abc": a span of 8–200 chars repeated five or more times in a row. A rule
 * of "=" or "-" is not a loop: the repeated span must hold a letter. The summariser also
 * runs this on the text as it streams in, to stop a looping model early (summarize.ts).
 */
export function loops(text: string): boolean {
  const m = /([\s\S]{8,200}?)\1{4,}/.exec(text);
  return m !== null && /\p{L}/u.test(m[1] ?? '');
}

/** Judge `summary`; `ok: false` says which fault and why, in words fit for the entry. */
export function judgeSummary(summary: string): SummaryVerdict {
  const text = summary.trim();
  if (text.replace(/\s+/g, '').length < MIN_CHARS) return { ok: false, fault: 'empty', reason: `the summary is empty or almost (${text.length} characters)` };
  const rep = repetition(text);
  if (rep.loop || (rep.parts >= 6 && rep.share > 0.5)) {
    return { ok: false, fault: 'repeated', reason: rep.loop ? 'the summary repeats the same text in a loop' : `the summary repeats itself (${Math.round(rep.share * 100)}% of its lines are repeats)` };
  }
  const { headings, sections, other } = parseSummary(text);
  if (headings < 2 && (CHAT_OPENER.test(text) || ROLE_TAG.test(text))) {
    return { ok: false, fault: 'continues-conversation', reason: 'the model continued the conversation instead of summarising it' };
  }
  if (headings === 0) return { ok: false, fault: 'no-headings', reason: 'the summary has none of the required headings (## Decisions, ## Open TODOs, …)' };
  // The headings and nothing under them ("- (none)" everywhere): it would replace the history
  // with an empty form. The extract holds what the messages said.
  const items = Object.values(sections).reduce((n, xs) => n + xs.length, 0);
  const prose = other.filter((l) => !/^(?:#{1,6}\s|\*\*.+\*\*:?$)/.test(l));
  if (items === 0 && prose.length === 0) return { ok: false, fault: 'no-content', reason: 'the summary has its headings but nothing under them' };
  return { ok: true };
}
