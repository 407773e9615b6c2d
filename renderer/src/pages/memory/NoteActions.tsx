/**
 * New, rename and delete note in the memory browser: each asks in place (a name
 * field, or "Delete …?" with the file named), goes to the engine (atomic, never overwriting,
 * checked against the version shown; refused read-only) and then opens the result.
 */
import { useState } from 'react';
import { api } from '../../api';
import { memoryHref, useMemory } from '../../stores/memory';
import { useDrafts } from '../../stores/drafts';

type Mode = { kind: 'none' } | { kind: 'new' } | { kind: 'rename' } | { kind: 'delete' };

function normalise(name: string): string {
  let p = name.trim().replace(/^\/+/, '');
  if (!p) return p;
  if (!p.toLowerCase().endsWith('.md')) p += '.md';
  if (!p.startsWith('memory/') && p !== 'MEMORY.md') p = `memory/${p}`;
  return p;
}

/** The note buttons: "New note" always (when writable); Rename/Delete for the open note. */
export function NoteActions({ writable }: { writable: boolean }) {
  const doc = useMemory((s) => s.doc);
  const editing = useMemory((s) => s.editing);
  const [mode, setMode] = useState<Mode>({ kind: 'none' });
  const [name, setName] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const longTerm = doc?.path.toLowerCase() === 'memory.md';

  async function run(fn: () => Promise<string>) {
    setBusy(true);
    setError(undefined);
    try {
      const next = await fn();
      setMode({ kind: 'none' });
      await useMemory.getState().loadList();
      window.location.hash = memoryHref(next);
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setBusy(false);
    }
  }
  const open = (m: Mode, initial = '') => {
    setMode(m);
    setName(initial);
    setError(undefined);
  };

  if (!writable) return null;
  return (
    <div className="note-actions">
      {mode.kind === 'none' && (
        <span className="row" style={{ marginTop: 0 }}>
          <button type="button" onClick={() => open({ kind: 'new' })}>
            New note
          </button>
          {doc && !longTerm && !editing && (
            <>
              <button type="button" onClick={() => open({ kind: 'rename' }, doc.path)}>
                Rename
              </button>
              <button type="button" onClick={() => open({ kind: 'delete' })}>
                Delete
              </button>
            </>
          )}
        </span>
      )}
      {(mode.kind === 'new' || mode.kind === 'rename') && (
        <form
          className="row"
          style={{ marginTop: 0 }}
          aria-label={mode.kind === 'new' ? 'New note' : `Rename ${doc?.path ?? ''}`}
          onSubmit={(e) => {
            e.preventDefault();
            submitName(mode.kind === 'new' ? 'new' : 'rename', normalise(name), doc, run, setError);
          }}
        >
          <label>
            {mode.kind === 'new' ? 'Name of the new note' : 'New name'}{' '}
            <input value={name} onChange={(e) => setName(e.target.value)} placeholder="memory/ideas.md" autoFocus spellCheck={false} />
          </label>
          <button type="submit" disabled={busy}>
            {mode.kind === 'new' ? 'Create' : 'Rename'}
          </button>
          <button type="button" onClick={() => setMode({ kind: 'none' })}>
            Cancel
          </button>
        </form>
      )}
      {mode.kind === 'delete' && doc && <DeleteConfirm doc={doc} busy={busy} run={run} onKeep={() => setMode({ kind: 'none' })} />}
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
    </div>
  );
}

type Run = (fn: () => Promise<string>) => Promise<void>;
type Doc = { path: string; mtime: number };

/** Create the note `target`, or rename the open one to it. */
function submitName(kind: 'new' | 'rename', target: string, doc: Doc | undefined, run: Run, setError: (e: string) => void): void {
  if (!target) return setError('Type a name, e.g. ideas or memory/projects/cairn.md');
  if (kind === 'new') {
    void run(async () => (await api['memory.create']({ path: target, text: `# ${target.replace(/^.*\//, '').replace(/\.md$/i, '')}\n` })).path);
  } else if (doc) {
    void run(async () => {
      const out = await api['memory.rename']({ from: doc.path, to: target, expectedMtime: doc.mtime });
      useDrafts.getState().drop(doc.path);
      return out.path;
    });
  }
}

/** "Delete …?" with the file named; deleting opens MEMORY.md. */
function DeleteConfirm({ doc, busy, run, onKeep }: { doc: Doc; busy: boolean; run: Run; onKeep: () => void }) {
  return (
    <div role="alertdialog" aria-label={`Delete ${doc.path}?`} className="mem-conflict">
      Delete {doc.path}? The file is removed from the workspace.
      <div className="row">
        <button
          type="button"
          disabled={busy}
          onClick={() =>
            void run(async () => {
              await api['memory.delete']({ path: doc.path, expectedMtime: doc.mtime });
              useDrafts.getState().drop(doc.path);
              return 'MEMORY.md';
            })
          }
        >
          Delete the note
        </button>
        <button type="button" onClick={onKeep}>
          Keep it
        </button>
      </div>
    </div>
  );
}
