/**
 * Reading MEMORY.md the way OpenClaw's dreaming writes it: entry lines, the promotion marker
 * (`<!-- openclaw-memory-promotion:KEY -->`) on the line(s) above a promoted entry, its
 * `Source: path#Lx-Ly`, the trailing annotations (`<!-- trigger: … -->`,
 * `<!-- importance: N -->`, `<!-- project: … -->`) and the older append path's
 * `[score=… signals=… recalls=… avg=… source=…]`. Pure functions, no I/O.
 */
import type { EntryAnnotations, PromotedEntry } from '../../../shared/types/dreaming';

const MARKER = /^<!--\s*openclaw-memory-promotion:\s*([^\n]+?)\s*-->$/u;
const SOURCE = /Source:\s+(\S+?)#L(\d+)-L(\d+)/u;
const SCORE = /\[score=(\d+(?:\.\d+)?) signals=\d+ recalls=\d+ avg=\d+(?:\.\d+)? source=([^\]]+)\]/u;

/** An entry line as OpenClaw counts one: not blank, not a heading, not a comment line, not a fence. */
export function isEntryLine(trimmed: string): boolean {
  return trimmed.length > 0 && !trimmed.startsWith('#') && !trimmed.startsWith('<!--') && !trimmed.startsWith('-->') && trimmed !== '```';
}

/** The entry lines of a MEMORY.md text, trimmed, in order. */
export function entryLines(text: string): string[] {
  return text.split(/\r?\n/u).map((l) => l.trim()).filter(isEntryLine);
}

/** The trailing annotations on one entry line. */
export function parseAnnotations(line: string): EntryAnnotations {
  const out: EntryAnnotations = { triggers: [], projects: [] };
  for (const m of line.matchAll(/<!--\s*(trigger|importance|project):\s*([^\n]*?)\s*-->/giu)) {
    const kind = (m[1] ?? '').toLowerCase();
    const value = m[2] ?? '';
    if (kind === 'trigger') out.triggers.push(...value.split(/[,;]/u).map((s) => s.trim()).filter(Boolean));
    else if (kind === 'project') out.projects.push(...value.split(';').map((s) => s.trim()).filter(Boolean));
    else {
      const n = Number.parseInt(value, 10);
      if (Number.isInteger(n) && n >= 1 && n <= 10) out.importance = n;
    }
  }
  return out;
}

/**
 * The promoted entries of a MEMORY.md text: entry lines under a promotion marker, or carrying
 * a `Source: …#Lx-Ly` / `[score=…]` that only promotion writes.
 */
export function promotedEntries(text: string): PromotedEntry[] {
  const lines = text.split(/\r?\n/u);
  const out: PromotedEntry[] = [];
  let pendingKey: string | undefined;
  lines.forEach((raw, i) => {
    const line = raw.trim();
    const marker = MARKER.exec(line);
    if (marker) {
      pendingKey = marker[1];
      return;
    }
    if (line.startsWith('<!--')) return; // a lineage marker between the promotion marker and its entry
    if (!isEntryLine(line)) {
      if (line.length) pendingKey = undefined;
      return;
    }
    const src = SOURCE.exec(line);
    const score = SCORE.exec(line);
    const key = pendingKey;
    pendingKey = undefined;
    if (!key && !src && !score) return;
    const entry: PromotedEntry = { line: i + 1, text: line, annotations: parseAnnotations(line) };
    if (key) entry.key = key;
    if (src) entry.source = { path: src[1] ?? '', startLine: Number(src[2]), endLine: Number(src[3]) };
    else if (score) {
      const ref = /^(.+?):(\d+)-(\d+)$/u.exec(score[2] ?? '');
      if (ref) entry.source = { path: ref[1] ?? '', startLine: Number(ref[2]), endLine: Number(ref[3]) };
    }
    if (score) entry.score = Number(score[1]);
    out.push(entry);
  });
  return out;
}

/** Entry lines added and removed between two versions (as multisets: order ignored, repeats counted). */
export function entryDiff(before: string, after: string): { added: string[]; removed: string[] } {
  const count = (xs: string[]) => {
    const m = new Map<string, number>();
    for (const x of xs) m.set(x, (m.get(x) ?? 0) + 1);
    return m;
  };
  const a = count(entryLines(before));
  const b = count(entryLines(after));
  const added: string[] = [];
  const removed: string[] = [];
  for (const [x, n] of b) for (let k = a.get(x) ?? 0; k < n; k++) added.push(x);
  for (const [x, n] of a) for (let k = b.get(x) ?? 0; k < n; k++) removed.push(x);
  return { added, removed };
}
