/**
 * Reading a compaction summary back into its sections (SPEC §4): the five headings every
 * summary uses, their bullet items, and whatever else it holds. The deterministic extract uses
 * it to carry a previous summary forward section by section instead of
 * pasting it whole or dropping it; the summary judge uses it to see whether a model's text
 * has the required shape at all.
 */

export type SectionKey = 'decisions' | 'todos' | 'constraints' | 'asks' | 'identifiers';

/** Section keys in the order the summary format lists them, with their exact headings. */
export const SECTIONS: readonly { key: SectionKey; heading: string; match: RegExp }[] = [
  { key: 'decisions', heading: '## Decisions', match: /^decisions?\b/i },
  { key: 'todos', heading: '## Open TODOs', match: /^(?:open\s+)?(?:todos?|to-dos?|tasks?|next steps?)\b/i },
  { key: 'constraints', heading: '## Constraints/Rules', match: /^(?:constraints?|rules?)\b/i },
  { key: 'asks', heading: '## Pending user asks', match: /^(?:pending\s+)?(?:user\s+)?(?:asks?|requests?|questions?)\b/i },
  { key: 'identifiers', heading: '## Exact identifiers', match: /^(?:exact\s+)?identifiers?\b/i },
];

export interface ParsedSummary {
  sections: Record<SectionKey, string[]>;
  /** Lines under headings that are none of the five (or before any heading), headings kept. */
  other: string[];
  /** How many of the five headings occur. */
  headings: number;
}

const HEADING = /^(?:#{1,6}\s+(.+?)|\*\*(.+?)\*\*)\s*:?\s*$/;
// Placeholders and notes a summary or an extract writes that carry nothing forward.
const EMPTY_ITEM = /^(?:\(none\)|none\.?|n\/a|nothing(?: yet)?\.?|-|\(\+\d+ more not shown\)|\[previous summary cut here\])$/i;
// Cairn's own additions, which are rebuilt on every compaction: the extract's first line, the
// cap note and the file lists of formatFileOps.
const OWN_LINE = /^\[(?:Extract: |Summary truncated at )/;
const FILE_TAG = /^<\/?(?:read-files|modified-files)>$/;

/** The section a heading's text names, if it is one of the five. */
export function sectionOf(headingText: string): SectionKey | undefined {
  const t = headingText.trim();
  return SECTIONS.find((s) => s.match.test(t))?.key;
}

/** Split `summary` into the five sections' items and the rest. */
export function parseSummary(summary: string): ParsedSummary {
  const sections: Record<SectionKey, string[]> = { decisions: [], todos: [], constraints: [], asks: [], identifiers: [] };
  const other: string[] = [];
  const found = new Set<SectionKey>();
  let current: SectionKey | undefined;
  let inFileTag = false;
  for (const raw of summary.split('\n')) {
    const line = raw.trim();
    if (FILE_TAG.test(line)) {
      inFileTag = !line.startsWith('</');
      continue;
    }
    if (inFileTag || !line || OWN_LINE.test(line)) continue;
    const h = HEADING.exec(line);
    if (h) {
      current = sectionOf(h[1] ?? h[2] ?? '');
      if (current) found.add(current);
      // "## Previous summary" (an older extract's nesting) and similar wrappers are transparent:
      // the sections inside them are read like any other.
      else if (!/^previous summary$/i.test((h[1] ?? h[2] ?? '').trim())) other.push(line);
      continue;
    }
    const bullet = /^(?:[-*+•]|\d+[.)])\s+/.test(line);
    const item = line.replace(/^(?:[-*+•]|\d+[.)])\s+/, '').trim();
    if (!item || EMPTY_ITEM.test(item)) continue;
    // A prose line under Exact identifiers ("_Updated from …_") is a note, not an identifier.
    if (current && (bullet || current !== 'identifiers')) sections[current].push(item);
    else other.push(line);
  }
  return { sections, other, headings: found.size };
}

/** A comparison key: case, backticks, spacing and final punctuation do not make items differ. */
export function itemKey(item: string): string {
  return item.toLowerCase().replace(/[`*_]/g, '').replace(/\s+/g, ' ').replace(/[.;,:!]+$/, '').trim();
}
