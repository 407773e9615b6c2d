/**
 * MEMORY.md read as a list of entries for the health list: each bullet or plain
 * line outside headings, comments and code fences, with its line number, its text without
 * OpenClaw's promotion annotations (`Source: memory/…#L3-L4`, `<!-- trigger: … -->`), and the
 * source it cites, if any. Pure: text in, entries out.
 */

/** One entry of a memory file. */
export interface MemoryEntry {
  line: number;
  /** The line as written. */
  raw: string;
  /** Without the bullet, the `Source:` reference and HTML comments. */
  text: string;
  /** The note and lines the entry cites (`Source: memory/2026-12-01.md#L3-L4`, `memory/x.md:12`). */
  cites?: { path: string; from?: number | undefined; to?: number | undefined } | undefined;
  /** A date the entry names or its cited daily note carries (YYYY-MM-DD). */
  date?: string | undefined;
}

const CITE = /(?:Source:\s*)?\b((?:memory\/)[\w./-]+?\.md)(?:#L(\d+)(?:-L?(\d+))?|:(\d+)(?:-(\d+))?)?(?=[\s)\],;]|$)/;
const DATE = /\b(\d{4}-\d{2}-\d{2})\b/;

/** Entries of a memory file's text. */
export function parseMemoryEntries(text: string): MemoryEntry[] {
  const out: MemoryEntry[] = [];
  let fence = false;
  let comment = false;
  text.split('\n').forEach((raw, i) => {
    const t = raw.trim();
    if (/^(```|~~~)/.test(t)) {
      fence = !fence;
      return;
    }
    if (fence) return;
    if (comment) {
      if (t.includes('-->')) comment = false;
      return;
    }
    if (t.startsWith('<!--') && !t.includes('-->')) {
      comment = true;
      return;
    }
    if (!t || /^#{1,6}\s/.test(t) || /^<!--.*-->$/.test(t) || /^(---|\*\*\*)$/.test(t) || /^\|/.test(t)) return;
    const m = CITE.exec(t);
    const cites = m ? { path: m[1] as string, from: num(m[2] ?? m[4]), to: num(m[3] ?? m[5] ?? m[2] ?? m[4]) } : undefined;
    const body = t
      .replace(/<!--[\s\S]*?-->/g, '')
      .replace(/Source:\s*\S+/g, '')
      .replace(/^(?:[-*+•]|\d+[.)])\s+(?:\[[ xX]\]\s+)?/, '')
      .trim();
    if (!body) return;
    const date = DATE.exec(t)?.[1] ?? (cites ? DATE.exec(cites.path)?.[1] : undefined);
    out.push({ line: i + 1, raw, text: body, ...(cites ? { cites } : {}), ...(date ? { date } : {}) });
  });
  return out;
}

function num(s: string | undefined): number | undefined {
  return s === undefined ? undefined : Number(s);
}

/** `text` without line `line` (1-based), and without the promotion marker comment right above it. */
export function withoutLine(text: string, line: number): string {
  const lines = text.split('\n');
  let from = line - 1;
  if (from > 0 && /^\s*<!--\s*openclaw-memory-promotion:.*-->\s*$/.test(lines[from - 1] ?? '')) from--;
  lines.splice(from, line - from);
  return lines.join('\n');
}
