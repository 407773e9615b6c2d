/**
 * A compaction entry as a card: the summary rendered, tokens before → after, a link that
 * scrolls the timeline to the first kept entry, and the chain of earlier compactions this
 * summary was built on ("summary of a summary").
 */
import { Markdown } from './Markdown';
import { num } from './format';
import type { CompactionInfo } from '../../stores/sessions';

export function CompactionCard({
  info,
  onJump,
  chain,
}: {
  info: CompactionInfo;
  /** Scroll the timeline to an entry. */
  onJump: (entryId: string) => void;
  /** Earlier compactions of the session, oldest first. */
  chain: CompactionInfo[];
}) {
  return (
    <article className="compaction-card" aria-label={`Compaction ${info.ordinal}`} data-testid="compaction-card">
      <header className="compaction-head">
        <strong>Compaction {info.ordinal}</strong>
        {info.extract && <span className="chip chip-warn">deterministic extract</span>}
        <span className="compaction-tokens" data-testid="compaction-tokens">
          {num(info.tokensBefore)} → {info.tokensAfter === undefined ? '?' : num(info.tokensAfter)} tokens
        </span>
      </header>
      <Markdown text={info.summary} />
      <footer className="compaction-foot">
        <button type="button" className="link" onClick={() => onJump(info.firstKeptEntryId)}>
          Jump to first kept entry ({info.firstKeptEntryId})
        </button>
        {chain.length > 0 && (
          <span className="chain" aria-label="Earlier compactions">
            Builds on:{' '}
            {chain.map((c, i) => (
              <span key={c.id}>
                {i > 0 && ' ← '}
                <button type="button" className="link" onClick={() => onJump(c.id)}>
                  compaction {c.ordinal}
                </button>
              </span>
            ))}
          </span>
        )}
        {info.details && (info.details.readFiles?.length || info.details.modifiedFiles?.length) ? (
          <span className="muted">
            read {info.details.readFiles?.length ?? 0} · modified {info.details.modifiedFiles?.length ?? 0} files
          </span>
        ) : null}
      </footer>
    </article>
  );
}
