/**
 * OpenClaw's recall annotations on a memory entry as chips: trigger phrases (OpenClaw injects
 * the entry when a message matches one), importance (1–10, ranks the entry) and project keys.
 * With `onFilter`, a chip is a button that narrows the search to entries carrying it.
 */
import type { MemoryAnnotations } from '../../../shared/types/search';

export interface AnnotationFilterPick {
  trigger?: string;
  project?: string;
  importanceMin?: number;
}

export function AnnotationChips({ a, onFilter }: { a: MemoryAnnotations; onFilter?: (f: AnnotationFilterPick) => void }) {
  const chip = (key: string, cls: string, text: string, title: string, pick: AnnotationFilterPick) =>
    onFilter ? (
      <button key={key} type="button" className={`chip ${cls}`} title={`${title} — click to show only these`} data-testid="annotation-chip" onClick={() => onFilter(pick)}>
        {text}
      </button>
    ) : (
      <span key={key} className={`chip ${cls}`} title={title} data-testid="annotation-chip">
        {text}
      </span>
    );
  return (
    <span className="annotation-chips" aria-label="Annotations">
      {a.triggers.map((t) => chip(`t:${t}`, 'chip-trigger', `⚡ ${t}`, 'Trigger: OpenClaw injects this entry when a message matches', { trigger: t }))}
      {a.importance !== null && chip('i', 'chip-importance', `★ ${a.importance}`, 'Importance (1–10): ranks this entry in OpenClaw’s search', { importanceMin: a.importance })}
      {a.projects.map((p) => chip(`p:${p}`, 'chip-project', `⎇ ${p}`, 'Project: scoped to this repository', { project: p }))}
    </span>
  );
}
