/**
 * Where OpenClaw recorded an entry came from (its origin class: the owner typed it, the agent
 * derived it, external content, or scaffolding), as a small label beside the annotation chips
 * on Search results and Memory entries. The title says the rest OpenClaw kept: session kind,
 * when it was observed, the sessions it was derived from.
 */
import type { MemoryProvenance } from '../../../shared/types/search';

const WORDS: Record<MemoryProvenance['origin'], { text: string; title: string }> = {
  owner: { text: 'owner', title: 'Typed by the owner in a trusted channel' },
  agent: { text: 'agent', title: 'Derived by the agent from the owner’s content' },
  untrusted: { text: 'untrusted', title: 'Derived from external content (web pages, tool output, other participants)' },
  system: { text: 'system', title: 'Scaffolding (heartbeat prompts, cron preambles)' },
};

/** The label of one provenance record. */
export function ProvenanceLabel({ p }: { p: MemoryProvenance }) {
  const w = WORDS[p.origin] ?? { text: p.origin, title: p.origin };
  const detail = [
    w.title,
    p.sessionKind !== 'unknown' ? `session kind: ${p.sessionKind}` : '',
    p.observedAt ? `observed ${p.observedAt.slice(0, 16).replace('T', ' ')} UTC` : '',
    p.sessions?.length ? `from session${p.sessions.length === 1 ? '' : 's'} ${p.sessions.join(', ')}` : '',
    p.supersedesKey ? `supersedes ${p.supersedesKey}` : '',
  ].filter(Boolean);
  return (
    <span className={`chip chip-prov chip-prov-${p.origin}`} title={`OpenClaw’s provenance: ${detail.join(' · ')}`} data-testid="provenance-label">
      {`◆ ${w.text}`}
      {p.sessions?.length ? ` · ${p.sessions.join(', ')}` : ''}
    </span>
  );
}
