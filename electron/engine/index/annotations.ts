/**
 * OpenClaw 2026.9's recall annotations on memory entries, parsed the way its
 * memory-host-sdk `curated-annotations` does: trailing HTML comments on an entry's line,
 *
 *   - Keep the gateway on loopback. <!-- trigger: gateway setup, network safety --> <!-- importance: 9 -->
 *   - Use the release helper. <!-- project: github.com/openclaw/openclaw -->
 *
 * Trigger phrases are comma- or semicolon-separated; importance is an integer 1–10 (the
 * highest wins); project keys are semicolon-separated (the host part lower-cased, `path:`
 * keys kept as written). As in OpenClaw, triggers and importance count only in the curated
 * files (`MEMORY.md`, `USER.md`) and only on lines that end with the comment; project keys
 * count in any memory file. Absent annotations are null/empty: the entry is neutral.
 */
import type { LineAnnotations, MemoryAnnotations } from '../../../shared/types/search';

/** The files whose trigger and importance annotations OpenClaw honours. */
export function isCuratedMemoryPath(p: string): boolean {
  return p === 'MEMORY.md' || p === 'memory.md' || p === 'USER.md';
}

/** Each `<!-- kind: value -->` of `text` (OpenClaw's scanMemoryAnnotations, not line-scoped). */
function* scan(text: string, marker: RegExp): Generator<{ kind: string; value: string }> {
  for (let m = marker.exec(text); m; m = marker.exec(text)) {
    const start = marker.lastIndex;
    const close = text.indexOf('-->', start);
    if (close < 0) return;
    yield { kind: (m[1] ?? '').toLowerCase(), value: text.slice(start, close).trim() };
    marker.lastIndex = close + 3;
  }
}

function projectKey(value: string): string | null {
  const t = value.trim();
  if (!t || /[\r\n<>]/u.test(t)) return null;
  if (t.startsWith('path:')) return t;
  const slash = t.indexOf('/');
  return slash < 1 ? t : `${t.slice(0, slash).toLowerCase()}${t.slice(slash)}`;
}

/** The annotations of an entry's (or a chunk's) lines; `curated` = MEMORY.md / USER.md. */
export function parseAnnotations(text: string, curated: boolean): MemoryAnnotations {
  const triggers = new Set<string>();
  const projects = new Set<string>();
  let importance: number | null = null;
  for (const { value } of scan(text, /<!--\s*(project)\s*:/giu)) {
    for (const raw of value.split(';')) {
      const k = projectKey(raw);
      if (k) projects.add(k);
    }
  }
  if (curated) {
    for (const line of text.split(/\r?\n/)) {
      if (!line.trimEnd().endsWith('-->')) continue;
      for (const { kind, value } of scan(line, /<!--\s*(trigger|importance|project)\s*:/giu)) {
        if (kind === 'trigger') {
          for (const p of value.split(/[,;]/u).map((s) => s.trim())) if (p) triggers.add(p);
        } else if (kind === 'importance' && /^\d+$/u.test(value)) {
          const n = Number.parseInt(value, 10);
          if (n >= 1 && n <= 10) importance = Math.max(importance ?? n, n);
        }
      }
    }
  }
  return { triggers: [...triggers], importance, projects: [...projects] };
}

/** Each line of a memory file that carries annotations (the Memory view's chips). */
export function lineAnnotations(text: string, relPath: string): LineAnnotations[] {
  const curated = isCuratedMemoryPath(relPath);
  const out: LineAnnotations[] = [];
  if (!text.includes('<!--')) return out;
  text.split('\n').forEach((line, i) => {
    if (!line.includes('<!--')) return;
    const annotations = parseAnnotations(line, curated);
    if (hasAnnotations(annotations)) out.push({ line: i + 1, annotations });
  });
  return out;
}

/** True when any annotation is present. */
export function hasAnnotations(a: MemoryAnnotations): boolean {
  return a.triggers.length > 0 || a.importance !== null || a.projects.length > 0;
}

/** A search filter on annotations (`cairn search --trigger/--project/--importance-min`). */
export interface AnnotationFilter {
  /** A trigger phrase the entry must carry (case-insensitive, whole phrase or a word of it). */
  trigger?: string | undefined;
  /** A project key the entry must carry (case-insensitive). */
  project?: string | undefined;
  /** The entry's importance must be at least this. */
  importanceMin?: number | undefined;
}

/** Whether any filter is set. */
export function isAnnotationFilterSet(f: AnnotationFilter | undefined): f is AnnotationFilter {
  return Boolean(f && (f.trigger?.trim() || f.project?.trim() || f.importanceMin !== undefined));
}

/** Whether annotations pass the filter. */
export function matchesAnnotationFilter(a: MemoryAnnotations, f: AnnotationFilter): boolean {
  const t = f.trigger?.trim().toLowerCase();
  if (t && !a.triggers.some((x) => x.toLowerCase() === t || x.toLowerCase().split(/\s+/).includes(t))) return false;
  const p = f.project?.trim().toLowerCase();
  if (p && !a.projects.some((x) => x.toLowerCase() === p)) return false;
  if (f.importanceMin !== undefined && (a.importance === null || a.importance < f.importanceMin)) return false;
  return true;
}
