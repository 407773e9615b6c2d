/**
 * The MEMORY.md health list on the Memory page: near-duplicates, entries whose
 * cited source is gone, entries never recalled since dreaming promoted them, entries a later
 * daily note contradicts — each with its evidence and a link to the line. A fix (remove the
 * entry) is shown as a diff first and applied through `memory.write` (atomic, mtime-checked),
 * only where writing is on; a read-only dir says so instead.
 */
import { useCallback, useEffect, useState } from 'react';
import { api } from '../../api';
import { LineDiff } from '../../components/LineDiff';
import { canWrite, READ_ONLY_NOTE } from '../../door';
import { useMemory } from '../../stores/memory';
import { readMemory } from '../../stores/memory-read';
import type { HealthItem, MemoryEntryRef, MemoryHealth } from '../../../../shared/types/audit';
import './health.css';

const KIND: Record<HealthItem['kind'], string> = {
  duplicate: 'Duplicate',
  contradiction: 'Contradicted',
  'stale-source': 'Source gone',
  'never-recalled': 'Never recalled',
};

function LineLink({ r }: { r: MemoryEntryRef }) {
  const open = useMemory((s) => s.open);
  return (
    <button type="button" className="link mono" onClick={() => void open({ path: r.path, range: { from: r.line, to: r.line } })}>
      {r.path}:{r.line}
    </button>
  );
}

function Item({ it, h, reload }: { it: HealthItem; h: MemoryHealth; reload: () => void }) {
  const [preview, setPreview] = useState<string | undefined>();
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const showFix = async () => {
    setError(undefined);
    try {
      setPreview((await readMemory(h.path)).text);
    } catch (err) {
      setError((err as Error).message);
    }
  };
  const apply = async () => {
    if (!it.fix) return;
    setBusy(true);
    try {
      await api['memory.write']({ path: it.fix.path, text: it.fix.text, expectedMtime: h.mtimeMs });
      setPreview(undefined);
      reload();
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <li className="health-item" data-testid="health-item" data-kind={it.kind}>
      <div className="health-line">
        <span className={`chip health-${it.kind}`}>{KIND[it.kind]}</span> <LineLink r={it.entry} /> <span>{it.entry.text}</span>
      </div>
      <div className="health-why">{it.message}</div>
      {it.evidence.map((e, i) => (
        <div key={i} className="health-evidence muted">
          Evidence: <LineLink r={e} /> {e.text}
        </div>
      ))}
      {it.fix && !preview && (
        <button type="button" className="link" onClick={() => void showFix()}>
          {it.fix.kind === 'remove' ? 'Remove this entry…' : 'Merge into the earlier entry…'}
        </button>
      )}
      {it.fix && preview !== undefined && (
        <div>
          <LineDiff before={preview} after={it.fix.text} testId="health-diff" label="The change: removed (−) and added (+) lines" unchanged="none" same="The fix changes nothing." />
          {!canWrite ? (
            <p className="muted">{READ_ONLY_NOTE}</p>
          ) : h.writable ? (
            <button type="button" onClick={() => void apply()} disabled={busy}>
              Apply to {it.fix.path}
            </button>
          ) : (
            <p className="muted">The state dir is read-only: turn writing on in Settings to apply this.</p>
          )}{' '}
          <button type="button" onClick={() => setPreview(undefined)}>
            Cancel
          </button>
        </div>
      )}
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
    </li>
  );
}

export function HealthPanel() {
  const [h, setH] = useState<MemoryHealth | undefined>();
  const [error, setError] = useState<string | undefined>();
  const load = useCallback(() => {
    api['memory.health']({}).then(
      (v) => (setH(v), setError(undefined)),
      (err: Error) => setError(err.message),
    );
  }, []);
  useEffect(() => {
    load();
    return api.on('memory.changed', () => load());
  }, [load]);
  if (error) return <p className="error">Could not check MEMORY.md: {error}</p>;
  if (!h || !h.exists) return null;
  return (
    <details className="health" data-testid="memory-health" open={h.items.length > 0}>
      <summary>
        {h.path} health: {h.items.length === 0 ? 'nothing to look at' : `${h.items.length} to look at`} ({h.entries} entries)
      </summary>
      <p className="muted">
        Recall: {h.recall.state === 'known' ? "from OpenClaw's recall store" : `unknown — ${h.recall.reason ?? ''}`}. Duplicates by text
        {h.vectors.used ? ' and by the index’s stored vectors' : ` (not by vector: ${h.vectors.reason ?? ''})`}.
      </p>
      <ul className="health-list">
        {h.items.map((it, i) => (
          <Item key={`${it.kind}-${it.entry.line}-${i}`} it={it} h={h} reload={load} />
        ))}
      </ul>
    </details>
  );
}
