/** One row of the session timeline: any entry type, known or not (SPEC §1.1). */
import { memo } from 'react';
import { Collapsible } from './Collapsible';
import { CompactionCard } from './CompactionCard';
import { Markdown } from './Markdown';
import { MessageView } from './MessageView';
import { TurnRecall } from './TurnRecall';
import { blocksOf, messageOf, textOf, type RawEntry, type RawMessage } from './entry-types';
import { num, when } from './format';
import type { CompactionInfo } from '../../stores/sessions';
import { scrollRegion } from '../../components/scroll-region';


function Meta({ e, label }: { e: RawEntry; label: string }) {
  return (
    <div className="entry-meta">
      <span className="muted">{label}</span>
      <span className="muted mono">{when(e.timestamp)}</span>
    </div>
  );
}

function metaLine(e: RawEntry): string {
  switch (e.type) {
    case 'model_change':
      return `Model: ${String(e.provider ?? '')}/${String(e.modelId ?? '')}`;
    case 'thinking_level_change':
      return `Thinking level: ${String(e.thinkingLevel ?? '')}`;
    case 'session_info':
      return `Session named “${String(e.name ?? '')}”`;
    case 'label':
      return `Label “${String(e.label ?? '')}” on ${String(e.targetId ?? '')}`;
    case 'custom': {
      const d = (e.data ?? {}) as { timestamp?: unknown; provider?: string; modelId?: string; prunedToolResults?: unknown; frozenToolResults?: unknown };
      if (e.customType !== 'openclaw.cache-ttl') return `Custom: ${String(e.customType ?? '')}`;
      // OpenClaw 2026.9 writes two kinds: a timestamped model-call marker, and a projection
      // marker (no timestamp) listing the tool results it prunes again on every later call.
      if (typeof d.timestamp === 'number') return `Model call recorded (prompt cache touched) · ${d.provider ?? ''}/${d.modelId ?? ''}`;
      const pruned = Array.isArray(d.prunedToolResults) ? d.prunedToolResults.length : 0;
      const frozen = Array.isArray(d.frozenToolResults) ? d.frozenToolResults.length : 0;
      return `Context projection (OpenClaw) · ${pruned ? `${pruned} pruned tool result${pruned === 1 ? '' : 's'} replayed on later calls` : 'nothing pruned'} · ${frozen} frozen`;
    }
    default:
      return `${e.type} entry`;
  }
}

function roleName(m: RawMessage): string {
  if (m.role === 'toolResult') return 'Tool';
  if (m.role === 'assistant') return 'Assistant';
  if (m.role === 'user') return 'User';
  return String(m.role ?? 'message');
}

export const EntryRow = memo(function EntryRow({
  e,
  compaction,
  chain,
  cut,
  summarised,
  flash,
  onJump,
}: {
  e: RawEntry;
  compaction: CompactionInfo | undefined;
  chain: CompactionInfo[];
  /** The entry is where the dry-run cut falls (first kept). */
  cut: boolean;
  /** The entry would be summarised by the planned compaction. */
  summarised: boolean;
  /** Briefly highlighted after a jump. */
  flash: boolean;
  onJump: (id: string) => void;
}) {
  // Booleans, not an object: the row stays memoised while the timeline scrolls.
  const cls = ['entry', `entry-${e.type}`, cut ? 'is-cut' : '', summarised ? 'is-summarised' : '', flash ? 'is-flash' : ''].join(' ');
  const m = messageOf(e);
  if (m && m.role === 'assistant' && m.stopReason === 'error') {
    // A failed model call: OpenClaw records it as an empty assistant message with the error.
    const err = typeof m.errorMessage === 'string' && m.errorMessage.trim() ? m.errorMessage : 'The model call failed (no error message recorded).';
    return (
      <div className={`${cls} role-assistant entry-error`} data-entry-id={e.id} data-testid="error-turn">
        <div className="entry-meta">
          <span className="role role-assistant">Assistant</span>
          <span className="chip chip-fail">error</span>
          {m.model && <span className="muted">{m.model}</span>}
          <span className="muted mono entry-time">{when(e.timestamp)}</span>
        </div>
        <p role="note" className="error">
          {err}
        </p>
      </div>
    );
  }
  if (m) {
    const role = String(m.role ?? 'message');
    const usage = m.role === 'assistant' && m.usage?.input !== undefined ? ` · in ${num(m.usage.input)} / out ${num(m.usage.output ?? 0)} tokens` : '';
    return (
      <div className={`${cls} role-${role}`} data-entry-id={e.id}>
        {cut && <div className="cut-marker">✂ The planned compaction keeps everything from here on</div>}
        <div className="entry-meta">
          <span className={`role role-${role}`}>{roleName(m)}</span>
          {m.role === 'assistant' && m.model && <span className="muted">{m.model}</span>}
          <span className="muted">{usage}</span>
          <span className="muted mono entry-time">{when(e.timestamp)}</span>
        </div>
        <MessageView m={m} tokens={e.$tokens} entryId={e.id} clipped={e.$clipped} />
        {m.role === 'user' && <TurnRecall entryId={e.id} />}
      </div>
    );
  }
  if (e.type === 'compaction' && compaction) {
    return (
      <div className={cls} data-entry-id={e.id}>
        <CompactionCard info={compaction} chain={chain} onJump={onJump} />
      </div>
    );
  }
  if (e.type === 'custom_message' || e.type === 'branch_summary') {
    const text = e.type === 'branch_summary' ? String(e.summary ?? '') : textOf(e.content as RawMessage['content']);
    const images = e.type === 'custom_message' ? blocksOf(e.content as RawMessage['content']).filter((b) => b.type === 'image').length : 0;
    return (
      <div className={cls} data-entry-id={e.id}>
        <Meta e={e} label={e.type === 'branch_summary' ? 'Branch summary' : `Injected message · ${String(e.customType ?? '')}${e.display === false ? ' (hidden from the user)' : ''}`} />
        <Markdown text={text} />
        {images > 0 && <span className="muted">{images} image(s)</span>}
      </div>
    );
  }
  const known = ['model_change', 'thinking_level_change', 'session_info', 'label', 'custom'].includes(e.type);
  return (
    <div className={`${cls} entry-small`} data-entry-id={e.id}>
      <span className="muted">{metaLine(e)}</span>
      <span className="muted mono entry-time">{when(e.timestamp)}</span>
      {!known && (
        <Collapsible className="raw" summary={<span className="muted">raw</span>}>
          {() => <pre className="pre" {...scrollRegion('Raw entry (JSON)')}>{JSON.stringify(e, null, 2)}</pre>}
        </Collapsible>
      )}
    </div>
  );
});
