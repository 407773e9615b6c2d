/** The state directory and the read-only switch (`state.setWritable`). */
import { useEffect, useState } from 'react';
import { api } from '../../api';
import { useApp } from '../../stores/app';
import { useStateInfo } from '../../stores/state';

export function StatePanel() {
  const info = useStateInfo((s) => s.info);
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    void useStateInfo.getState().load();
  }, []);
  if (!info) return <p className="muted">Reading the state directory…</p>;

  async function toggle(writable: boolean) {
    const before = useStateInfo.getState().info;
    // Optimistic: the switch moves at once; it moves back if the engine refuses.
    if (before) useStateInfo.getState().set({ ...before, writable });
    setBusy(true);
    try {
      const next = await api['state.setWritable']({ writable });
      useApp.setState({ summary: next });
      useStateInfo.getState().set({ stateDir: next.stateDir, writable: next.writable, createdBy: next.createdBy });
      setError(undefined);
    } catch (err) {
      if (before) useStateInfo.getState().set(before);
      setError((err as Error).message);
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className="panel" aria-labelledby="state-title">
      <h2 id="state-title">State directory</h2>
      <p>
        <code data-testid="settings-state-dir">{info.stateDir}</code>{' '}
        <span className="muted">({info.createdBy === 'cairn' ? 'created by Cairn' : 'not created by Cairn'})</span>
      </p>
      <label className="switch">
        <input type="checkbox" checked={info.writable} disabled={busy} onChange={(e) => void toggle(e.target.checked)} />
        Allow Cairn to write memory files and transcripts
      </label>
      <p className="muted">
        {info.writable
          ? 'Writable: memory edits, compaction and memory flushes change files in this directory.'
          : 'Read-only: nothing in this directory is changed; turn writing on to edit memory or compact sessions.'}
      </p>
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
    </section>
  );
}
