/**
 * A compaction entry as a card: the summary rendered, tokens before → after, a link that
 * scrolls the timeline to the first kept entry, a Copy button for the summary, and the chain of earlier compactions this
 * summary was built on ("summary of a summary").
 */
import { Markdown } from './Markdown';
import { num } from './format';
import { CopyButton } from '../../components/CopyButton';
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
        {info.recorder === 'openclaw' ? (
          // OpenClaw's figures are the provider's prompt sizes (system prompt included); Cairn's
          // are estimates from the transcript alone — never compared with each other (12.6).
          <span className="compaction-tokens" data-testid="compaction-tokens">
            <span title="As OpenClaw recorded them: the prompt the provider counted, system prompt included">
              OpenClaw: {num(info.tokensBefore)} → {info.recordedTokensAfter === undefined ? '?' : num(info.recordedTokensAfter)} tokens
            </span>
            <span className="muted" title="Cairn's estimate from the transcript (ceil(chars / 4)), system prompt not included">
              {' '}· Cairn estimate: {info.estimatedTokensBefore === undefined ? '?' : num(info.estimatedTokensBefore)} → {info.tokensAfter === undefined ? '?' : num(info.tokensAfter)}
            </span>
          </span>
        ) : (
          <span className="compaction-tokens" data-testid="compaction-tokens">
            {num(info.tokensBefore)} → {info.tokensAfter === undefined ? '?' : num(info.tokensAfter)} tokens
          </span>
        )}
      </header>
      <Markdown text={info.summary} />
      <footer className="compaction-foot">
        <CopyButton text={info.summary} label={`Copy the summary of compaction ${info.ordinal}`} />
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
