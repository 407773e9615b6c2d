/**
 * Identifier retention (SPEC §4 "Beyond"): the share of the old part's
 * identifiers — found by the extract's own finder (identifiers.ts) — that a model's summary
 * still contains, and the completion that makes every one of them survive: the model's text
 * is kept as it is and the missing identifiers are added under `## Exact identifiers`.
 * Small models drop paths and ports first; this is what stops a compaction from losing them.
 */
import { redactSecrets } from '../util/redact';
import { dropContained, findIdentifiers } from './identifiers';
import { SUMMARY_MAX_CHARS } from './prompt';

export interface IdentifierRetention {
  /** Distinct identifiers in the old part (a host inside a kept URL is not counted twice). */
  total: number;
  /** How many of them occur verbatim in the summary. */
  kept: number;
  /** kept / total; 1 when the old part has none. */
  share: number;
  /** The identifiers the summary lacks, in order of first appearance. */
  missing: string[];
}

/**
 * Measure how many identifiers of `oldPartText` (the conversation the summariser saw, plus
 * the previous summary) occur verbatim in `summary`. Pure and cheap: call it on any summary,
 * e.g. to compare a model's text with the completed one in a benchmark.
 */
export function identifierRetention(oldPartText: string, summary: string): IdentifierRetention {
  const ids = dropContained(findIdentifiers(oldPartText));
  const missing = ids.filter((id) => !summary.includes(id));
  const total = ids.length;
  const kept = total - missing.length;
  return { total, kept, share: total === 0 ? 1 : kept / total, missing };
}

const IDS_HEADING = /^#{1,6}\s*(?:exact\s+)?identifiers?\b.*$/im;

export interface CompletedSummary {
  text: string;
  retention: IdentifierRetention;
  /** Identifiers added to the model's text. */
  added: number;
  /** Missing identifiers that did not fit in `maxChars` (normally 0). */
  notShown: number;
}

/**
 * The model's `summary` with every identifier of `oldPartText` it lacks added as "- `id`"
 * lines at the end of its `## Exact identifiers` section (created at the end when absent),
 * within `maxChars`. Identifiers pass through the redaction rule first, as the extract's do.
 */
export function completeIdentifiers(oldPartText: string, summary: string, maxChars = SUMMARY_MAX_CHARS): CompletedSummary {
  const retention = identifierRetention(oldPartText, summary);
  if (retention.missing.length === 0) return { text: summary, retention, added: 0, notShown: 0 };
  const lines = [...new Set(retention.missing.map((id) => redactSecrets(id)))].filter((id) => !summary.includes(id)).map((id) => `- \`${id}\``);
  const m = IDS_HEADING.exec(summary);
  let head = summary.trimEnd();
  let tail = '';
  if (m) {
    // Insert before the heading that follows the identifiers section, if any.
    const after = m.index + m[0].length;
    const next = /^#{1,6}\s/m.exec(summary.slice(after));
    const cut = next ? after + next.index : summary.length;
    head = summary.slice(0, cut).trimEnd();
    tail = next ? `\n\n${summary.slice(cut)}` : '';
  }
  const marker = '- (added by Cairn: identifiers of the compacted part that the summary left out)';
  let add = m ? `\n${marker}` : `\n\n## Exact identifiers\n${marker}`;
  const note = (n: number) => `\n- (+${n} more identifiers not shown)`;
  let added = 0;
  const room = maxChars - head.length - tail.length - 64;
  for (const l of lines) {
    if (add.length + l.length + 1 > room) break;
    add += `\n${l}`;
    added++;
  }
  const notShown = lines.length - added;
  const text = `${head}${add}${notShown ? note(notShown) : ''}${tail}`;
  return { text, retention, added, notShown };
}
