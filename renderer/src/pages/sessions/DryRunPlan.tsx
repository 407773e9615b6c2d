/**
 * The dry run of a compaction: which summariser will write (the model, or the deterministic
 * extract and what of the instructions it follows), tokens before → after, the cut (a link
 * into the timeline) and the exact prompt, copyable.
 */
import type { CompactPlanView } from '../../stores/sessions-api';
import { num } from './format';
import { CopyButton } from '../../components/CopyButton';
import { scrollRegion } from '../../components/scroll-region';

export function DryRunPlan({ p, jumpTo }: { p: CompactPlanView; jumpTo: (entryId: string) => void }) {
  return (
    <section aria-labelledby="plan-title">
      <h2 id="plan-title">Dry run</h2>
      <p data-testid="compact-summariser" className="notice">
        {p.summariser.kind === 'model' ? (
          <>
            Will summarise with the configured model <b>{p.summariser.label}</b>.
          </>
        ) : (
          <>
            No model is configured: Cairn will write a <b>deterministic extract</b> (the user's asks, decisions, TODO lines and every identifier) instead of a
            model summary. Configure a model in Settings for a written summary.
          </>
        )}
      </p>
      {p.summariser.kind === 'extract' && p.extractNote && (
        // The extract cannot follow every instruction: say which parts it follows and which it refuses.
        <p className={`notice${/not followed/.test(p.extractNote) ? ' notice-warn' : ''}`} data-testid="plan-extract-note">
          Extract: {p.extractNote.charAt(0).toUpperCase() + p.extractNote.slice(1)}
        </p>
      )}
      {p.summarisedEntryIds.length === 0 && (
        // Nothing to summarise: say so once instead of "0 entries summarised · one request".
        <p className="notice notice-warn" data-testid="plan-nothing">
          Nothing to compact right now (why: under “Compact now” below).
        </p>
      )}
      <div className="stats" style={p.summarisedEntryIds.length === 0 ? { display: 'none' } : undefined}>
        <div className="stat">
          <b data-testid="plan-tokens">
            {num(p.tokensBefore)} → {num(p.keptTokens)} + summary
          </b>
          <span>tokens before → after (≤ {num(p.tokensAfterMax)} with the longest summary)</span>
        </div>
        <div className="stat">
          <b>{num(p.summarisedEntryIds.length)}</b>
          <span>entries summarised</span>
        </div>
        <div className="stat">
          <b>{p.stages === 1 ? 'one request' : `${p.stages} stages + merge`}</b>
          <span>summariser calls</span>
        </div>
        <div className="stat">
          <b>{p.previousSummary ? 'yes' : 'no'}</b>
          <span>updates a previous summary</span>
        </div>
      </div>
      <p>
        {p.firstKeptEntryId ? (
          <>
            The cut falls before entry <code>{p.firstKeptEntryId}</code>: everything from there on is kept verbatim.{' '}
            <button type="button" className="link" onClick={() => jumpTo(p.firstKeptEntryId as string)}>
              Show the cut in the timeline
            </button>
          </>
        ) : (
          'Nothing is kept verbatim: the whole history goes into the summary.'
        )}
      </p>
      <h3>Exact prompt</h3>
      <div className="side-by-side">
        <div>
          <div className="muted">
            System <CopyButton text={p.prompt.system} label="Copy the system prompt" />
          </div>
          <pre className="pre plan-prompt" data-testid="plan-system" {...scrollRegion('System prompt')}>
            {p.prompt.system}
          </pre>
        </div>
        <div>
          <div className="muted">
            User ({num(p.prompt.user.length)} chars) <CopyButton text={p.prompt.user} label="Copy the user prompt" />
          </div>
          <pre className="pre plan-prompt" data-testid="plan-prompt" {...scrollRegion('User prompt')}>
            {p.prompt.user}
          </pre>
        </div>
      </div>
    </section>
  );
}
