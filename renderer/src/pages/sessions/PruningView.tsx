/**
 * The pruning view: what is on disk beside what the model would be sent on the next call
 * (the engine's prune diff), per tool result kept / soft-trimmed / cleared with chars
 * before → after, the ratio before → after, and controls to try other settings. The
 * settings tried here go to the engine as overrides of one preview and are never saved.
 */
import { useEffect, useRef, useState } from 'react';
import { useSessions, type PruneOverrides } from '../../stores/sessions';
import { fetchPruneText, type PruneRow } from '../../stores/sessions-api';
import { Collapsible } from './Collapsible';
import { ShowAll } from './ShowAll';
import { VIRTUAL_MIN, VirtualTbody } from './VirtualTbody';
import { ago, num, pct } from './format';

/**
 * One side of a tool result: the engine sends its first 1,200 chars and the full length
 * (a big session's full outputs are ~100 MB); "Show all" fetches the rest on demand.
 */
function Excerpt({ text, length, load }: { text: string; length: number; load: () => Promise<string> }) {
  return (
    <Collapsible className="excerpt" summary={<span className="muted mono">{text.slice(0, 60).replace(/\s+/g, ' ')}…</span>}>
      {() => <ShowAll text={text} length={length} load={load} />}
    </Collapsible>
  );
}

const GATE: Record<string, string> = {
  'ttl-expired': 'open: the prompt cache has expired, so pruning runs on the next call',
  'ttl-not-expired': 'closed: the prompt cache is still warm (pruning would re-write it)',
  'no-cache-touch': 'closed: no model call is recorded for this session',
  'route-not-eligible': 'closed: this route is not cache-TTL eligible (OpenClaw records model calls only on Anthropic-wire routes)',
  off: 'closed: pruning is off (mode "off")',
  'ttl-ignored': 'open: TTL ignored for this preview',
};

function numOrUndef(v: string): number | undefined {
  if (v.trim() === '') return undefined;
  const n = Number(v);
  return Number.isFinite(n) ? n : undefined;
}

function Controls() {
  const overrides = useSessions((s) => s.overrides);
  const setOverrides = useSessions((s) => s.setOverrides);
  const settings = useSessions((s) => s.prune.value?.settings);
  const contextWindow = useSessions((s) => s.prune.value?.contextWindow);
  const fields = useSessions((s) => s.prune.fields);
  const [draft, setDraft] = useState<Record<string, string>>({});
  useEffect(() => {
    const t = setTimeout(() => {
      const next: PruneOverrides = { ...overrides };
      const setNum = (k: 'contextWindow' | 'softTrimRatio' | 'hardClearRatio' | 'keepLastAssistants') => {
        if (!(k in draft)) return;
        const v = numOrUndef(draft[k] ?? '');
        if (v === undefined) delete next[k];
        else next[k] = v;
      };
      setNum('contextWindow');
      setNum('softTrimRatio');
      setNum('hardClearRatio');
      setNum('keepLastAssistants');
      if ('ttl' in draft) {
        if (draft.ttl?.trim()) next.ttl = draft.ttl.trim();
        else delete next.ttl;
      }
      if ('now' in draft) {
        if (draft.now) next.now = new Date(draft.now).toISOString();
        else delete next.now;
      }
      if (JSON.stringify(next) !== JSON.stringify(overrides)) setOverrides(next);
    }, 300);
    return () => clearTimeout(t);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only a draft change triggers a preview
  }, [draft]);
  const field = (k: string, label: string, placeholder: string | number | undefined, attrs: Record<string, string | number> = {}) => {
    // The engine names a refused value by its request path: mark that input and say why.
    const bad = fields?.find((f) => f.path === `overrides.${k}`);
    return (
      <label className={bad ? 'invalid' : undefined}>
        {label}
        <input
          aria-label={label}
          aria-invalid={bad ? true : undefined}
          aria-describedby={bad ? `prune-err-${k}` : undefined}
          value={draft[k] ?? ''}
          placeholder={placeholder === undefined ? '' : String(placeholder)}
          onChange={(e) => setDraft((d) => ({ ...d, [k]: e.target.value }))}
          {...attrs}
        />
        {bad && (
          <span id={`prune-err-${k}`} className="field-error">
            {label} {bad.message}
          </span>
        )}
      </label>
    );
  };
  return (
    <form className="controls" aria-label="Try other pruning settings" onSubmit={(e) => e.preventDefault()}>
      {field('contextWindow', 'Context window (tokens)', contextWindow, { type: 'number', min: 1000, step: 1000 })}
      {field('ttl', 'TTL', settings?.ttl)}
      {field('softTrimRatio', 'softTrimRatio', settings?.softTrimRatio, { type: 'number', min: 0, max: 1, step: 0.05 })}
      {field('hardClearRatio', 'hardClearRatio', settings?.hardClearRatio, { type: 'number', min: 0, max: 1, step: 0.05 })}
      {field('keepLastAssistants', 'keepLastAssistants', settings?.keepLastAssistants, { type: 'number', min: 0, step: 1 })}
      {field('now', 'Evaluate TTL at', undefined, { type: 'datetime-local' })}
      <label className="check-inline">
        <input type="checkbox" checked={overrides.ignoreTtl === true} onChange={(e) => setOverrides({ ...overrides, ignoreTtl: e.target.checked || undefined })} />
        Ignore TTL (prune now)
      </label>
      <button
        type="button"
        onClick={() => {
          setDraft({});
          setOverrides({});
        }}
        disabled={Object.keys(overrides).length === 0}
      >
        Reset to config
      </button>
    </form>
  );
}

function Row({ r, onJump, index, measure }: { r: PruneRow; onJump: (id: string) => void; index?: number; measure?: (el: Element | null) => void }) {
  const load = (side: 'before' | 'after') => () => {
    const { selectedId, overrides, prune } = useSessions.getState();
    if (!selectedId || !r.entryId || !prune.value) return Promise.reject(new Error('the preview is no longer open'));
    return fetchPruneText(selectedId, overrides, prune.value.gate.now, r.entryId, side);
  };
  return (
    <tr data-action={r.action} data-index={index} ref={measure}>
      <td>
        {r.entryId ? (
          <button type="button" className="link mono" onClick={() => onJump(r.entryId as string)} title="Show in timeline">
            {r.toolName}
          </button>
        ) : (
          <span className="mono">{r.toolName}</span>
        )}
      </td>
      <td className={`act-${r.action}`}>
        {r.action}
        {r.keptBecause ? <span className="muted"> ({r.keptBecause})</span> : null}
        {r.replayed ? (
          <span className="chip" title="OpenClaw pruned this result in an earlier round and prunes it again on every call" data-testid="prune-replayed">
            replayed
          </span>
        ) : null}
        {r.imagesRemoved ? <span className="muted"> · {r.imagesRemoved} image removed</span> : null}
      </td>
      <td className="n">{num(r.charsBefore)}</td>
      <td className="n">{num(r.charsAfter)}</td>
      <td>
        <Excerpt text={r.before} length={r.beforeLength} load={load('before')} />
      </td>
      <td>{r.action === 'kept' ? <span className="muted">same as on disk</span> : <Excerpt text={r.after ?? ''} length={r.afterLength} load={load('after')} />}</td>
    </tr>
  );
}

export function PruningView() {
  const prune = useSessions((s) => s.prune);
  const overrides = useSessions((s) => s.overrides);
  const jumpTo = useSessions((s) => s.jumpTo);
  const [onlyChanged, setOnlyChanged] = useState(false);
  const scrollRef = useRef<HTMLDivElement>(null);
  const v = prune.value;
  const rows = v ? (onlyChanged ? v.rows.filter((r) => r.action !== 'kept') : v.rows) : [];
  return (
    <div className="pane-scroll" data-testid="pruning-view" ref={scrollRef}>
      <p className="muted">
        Pruning never changes the file: it trims or clears old tool results in the copy sent to the model. Settings tried here are not saved.
      </p>
      <Controls />
      {prune.error && (
        <p role="alert" className="error">
          {prune.fields?.length
            ? 'Some of the settings you tried are not valid (marked above); the figures below are from the last valid preview.'
            : `Could not preview pruning: ${prune.error}`}
        </p>
      )}
      {prune.loading && !v && <p className="muted">Computing the prune diff…</p>}
      {v && (
        <>
          <PruneNotices v={v} ignoreTtl={overrides.ignoreTtl === true} />
          <PruneStats v={v} stale={Boolean(prune.error)} loading={prune.loading} />
          <label className="check-inline" style={{ margin: '6px 0' }}>
            <input type="checkbox" checked={onlyChanged} onChange={(e) => setOnlyChanged(e.target.checked)} /> Only trimmed and cleared
          </label>
          <table className="prune-table" aria-label="Tool results: on disk and sent to the model">
            <colgroup>
              <col style={{ width: 96 }} />
              <col style={{ width: 118 }} />
              <col style={{ width: 76 }} />
              <col style={{ width: 76 }} />
              <col />
              <col />
            </colgroup>
            <thead>
              <tr>
                <th>Tool result</th>
                <th>Action</th>
                <th>Chars before</th>
                <th>Chars after</th>
                <th>On disk</th>
                <th>Sent to the model next call</th>
              </tr>
            </thead>
            {rows.length > VIRTUAL_MIN ? (
              <VirtualTbody
                count={rows.length}
                scrollRef={scrollRef}
                estimate={64}
                columns={6}
                row={(i, measure) => <Row key={rows[i]?.entryId ?? i} r={rows[i] as PruneRow} onJump={jumpTo} index={i} measure={measure} />}
              />
            ) : (
              <tbody data-testid="prune-rows">
                {rows.map((r, i) => (
                  <Row key={r.entryId ?? i} r={r} onJump={jumpTo} />
                ))}
              </tbody>
            )}
          </table>
          {rows.length === 0 && <p className="muted">No tool results {onlyChanged ? 'are changed' : 'in the context'}.</p>}
        </>
      )}
    </div>
  );
}

type Preview = NonNullable<ReturnType<typeof useSessions.getState>['prune']['value']>;

/** The TTL gate, OpenClaw's replayed pruning and the prompt sizes of the last and next call. */
function PruneNotices({ v, ignoreTtl }: { v: Preview; ignoreTtl: boolean }) {
  return (
    <>
    <p className={`notice${v.gate.open ? '' : ' notice-warn'}`} data-testid="prune-gate">
      TTL gate {GATE[v.gate.reason] ?? v.gate.reason}
      {v.gate.lastCallAt ? ` · last model call ${ago(v.gate.lastCallAt, v.gate.now)}, TTL ${Math.round(v.gate.ttlMs / 60000)} min` : ''}
      {!v.gate.open && !ignoreTtl ? ' — tick “Ignore TTL” to see what pruning would do.' : ''}
    </p>
    {v.replayed > 0 && (
      <p className="notice" data-testid="prune-replay">
        OpenClaw pruned {v.replayed} tool result{v.replayed === 1 ? '' : 's'} in an earlier round and replays that on every call, whatever the TTL gate says: they are
        sent trimmed below.
      </p>
    )}
    <p className="muted" data-testid="prune-last-call">
      {v.lastCall ? `Last model call: ${num(v.lastCall.promptTokens)} prompt tokens as the provider counted them (system prompt included). ` : ''}
      Next call, Cairn's estimate: ~{num(v.sentTokensEstimate)} tokens
      {v.systemPromptTokens
        ? ` (messages ~${num(v.sentTokensEstimate - v.systemPromptTokens)} + system prompt ~${num(v.systemPromptTokens)} as OpenClaw recorded it).`
        : ' of messages (the system prompt is not recorded for this session).'}
    </p>
    </>
  );
}

/** The ratio, chars and counts before → after. */
function PruneStats({ v, stale, loading }: { v: Preview; stale: boolean; loading: boolean }) {
  return (
    <div className={`stats${stale ? ' stale' : ''}`} aria-live="polite" data-stale={stale ? 'true' : undefined}>
      <div className="stat">
        <b data-testid="prune-ratio">
          {pct(v.ratioBefore)} → {pct(v.ratioAfter)}
        </b>
        <span>of the window ({num(v.contextWindow)} tokens)</span>
      </div>
      <div className="stat">
        <b>
          {num(v.totalCharsBefore)} → {num(v.totalCharsAfter)}
        </b>
        <span>chars</span>
      </div>
      <div className="stat">
        <b data-testid="prune-kept">{v.kept}</b>
        <span>kept</span>
      </div>
      <div className="stat">
        <b data-testid="prune-trimmed">{v.softTrimmed}</b>
        <span>soft-trimmed</span>
      </div>
      <div className="stat">
        <b data-testid="prune-cleared">{v.cleared}</b>
        <span>cleared</span>
      </div>
      {loading && <span className="muted">updating…</span>}
    </div>
  );
}
