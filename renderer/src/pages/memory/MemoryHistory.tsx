/**
 * MEMORY.md's history (dreaming.history): a timeline of every version Cairn found — dreaming's
 * saved copies, versions Cairn saw, the file now — newest first; the picked version's line diff
 * against the one before (jsdiff), its promoted entries with where each came from (daily note
 * and lines, one click away; the sessions whose searches surfaced it; recall counts, distinct
 * queries, days) and, below, the candidates dreaming has not promoted and why.
 */
import { useEffect, useState } from 'react';
import { api } from '../../api';
import { LineDiff } from '../../components/LineDiff';
import { memoryHref } from '../../stores/memory';
import type { MemoryHistory as History, MemoryVersion, PromotedEntry } from '../../../../shared/types/dreaming';
import { Annotations, Evidence } from './DreamingEvidence';
import { when } from '../sessions/format';

export function MemoryHistory() {
  const [history, setHistory] = useState<History | undefined>();
  const [error, setError] = useState<string | undefined>();
  const [picked, setPicked] = useState<string | undefined>();
  useEffect(() => {
    let live = true;
    api['dreaming.history']({}).then(
      (h) => {
        if (!live) return;
        setHistory(h);
        // Open on the newest version that promoted something (else the newest).
        const withPromo = [...h.versions].reverse().find((v) => v.promotions.length && v.added.length);
        setPicked((withPromo ?? h.versions.at(-1))?.id);
      },
      (err: Error) => live && setError(err.message),
    );
    return () => {
      live = false;
    };
  }, []);
  if (error) return <p role="alert" className="error">Could not read MEMORY.md&apos;s history: {error}</p>;
  if (!history) return <p className="muted">Reading MEMORY.md&apos;s history…</p>;
  const idx = history.versions.findIndex((v) => v.id === picked);
  const version = history.versions[idx];
  const prev = idx > 0 ? history.versions[idx - 1] : undefined;
  return (
    <div className="dream-history" data-testid="memory-history">
      <StoreNote history={history} />
      <div className="dream-layout">
        <ol className="dream-timeline" aria-label="Versions of MEMORY.md, newest first">
          {[...history.versions].reverse().map((v) => (
            <li key={v.id}>
              <button type="button" className={v.id === picked ? 'active' : undefined} aria-current={v.id === picked ? 'true' : undefined} onClick={() => setPicked(v.id)}>
                <span className="dream-when">{when(v.at)}</span>
                <span className="dream-label">{v.label}</span>
                <span className="dream-counts">
                  {v.added.length ? `+${v.added.length}` : ''} {v.removed.length ? `−${v.removed.length}` : ''}
                  {v.promotions.length ? ` · ${v.promotions.length} promoted` : ''}
                </span>
              </button>
            </li>
          ))}
        </ol>
        <section className="dream-version" aria-label="The picked version">
          {version ? <VersionView version={version} prev={prev} /> : <p className="muted">No version of MEMORY.md was found.</p>}
        </section>
      </div>
      <Waiting history={history} />
    </div>
  );
}

function StoreNote({ history }: { history: History }) {
  const s = history.store;
  if (!s.found) return <p className="muted">No dreaming state was found for this dir: the timeline has only the versions Cairn saw.</p>;
  if (s.problem) return <p role="alert" className="error">Dreaming&apos;s state could not be read: {s.problem}</p>;
  if (s.workspaceMatch === 'relocated') return <p className="muted">Dreaming recorded this workspace at {s.recordedWorkspace} (the dir was moved or copied since).</p>;
  return null;
}

function VersionView({ version, prev }: { version: MemoryVersion; prev: MemoryVersion | undefined }) {
  return (
    <>
      <h2>
        {version.label} <span className="muted">— {when(version.at)}</span>
      </h2>
      {version.promotions.length > 0 && (
        <section aria-label="Promoted in this version">
          <h3>Promoted into MEMORY.md</h3>
          {version.promotions.map((p) => (
            <Promotion key={`${p.line}-${p.text}`} entry={p} />
          ))}
        </section>
      )}
      <h3>{prev ? 'Changes since the version before' : 'The earliest version found'}</h3>
      {prev ? <LineDiff before={prev.text} after={version.text} testId="history-diff" label="Differences: earlier version (−) and this version (+)" said={{ removed: 'removed: ', added: 'added: ' }} unchanged="all" same="Same text as the version before." /> : <pre className="dream-text">{version.text}</pre>}
    </>
  );
}

function Promotion({ entry }: { entry: PromotedEntry }) {
  const src = entry.source ?? (entry.evidence ? { path: entry.evidence.path, startLine: entry.evidence.startLine, endLine: entry.evidence.endLine } : undefined);
  return (
    <article className="dream-promo" data-testid="promotion">
      <p className="dream-entry">{entry.text.replace(/\s*<!--.*?-->/g, '')}</p>
      <Annotations a={entry.annotations} />
      {src && (
        <p>
          Came from{' '}
          <a href={memoryHref(src.path, { from: src.startLine, to: src.endLine })} data-testid="promotion-source">
            {src.path}#L{src.startLine}-L{src.endLine}
          </a>
          {entry.score !== undefined && <> · score {entry.score}</>}
        </p>
      )}
      {entry.evidence ? <Evidence e={entry.evidence} /> : <p className="muted">Dreaming&apos;s recall store no longer holds this entry&apos;s counts.</p>}
    </article>
  );
}

function Waiting({ history }: { history: History }) {
  if (!history.waiting.length && !history.deepReport) return null;
  const t = history.thresholds;
  return (
    <section className="dream-waiting" aria-label="Not promoted">
      <h3>Not promoted</h3>
      <p className="muted">
        Dreaming promotes a note when it surfaced at least {t.minRecallCount} times, for at least {t.minUniqueQueries} different queries, with a score of {t.minScore} or more.
      </p>
      <ul>
        {history.waiting.map((c) => (
          <li key={c.evidence.key} data-testid="waiting">
            <a href={memoryHref(c.evidence.path, { from: c.evidence.startLine, to: c.evidence.endLine })}>
              {c.evidence.path}#L{c.evidence.startLine}-L{c.evidence.endLine}
            </a>{' '}
            <span className="muted">{c.evidence.snippet.slice(0, 120)}</span>
            <ul>
              {c.reasons.map((r) => (
                <li key={r}>{r}</li>
              ))}
            </ul>
          </li>
        ))}
      </ul>
      {history.deepReport && (
        <>
          <h4>What dreaming&apos;s deep report says ({history.deepReport.path})</h4>
          <ul>
            {history.deepReport.lines.map((l) => (
              <li key={l}>{l}</li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
