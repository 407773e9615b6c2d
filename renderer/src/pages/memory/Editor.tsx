/**
 * Editing one memory file: a plain textarea, Ctrl/⌘+S to save (atomic, checked against the
 * mtime it was opened with), Escape to cancel (asking first when there are unsaved changes); a
 * conflict says so and offers reload or overwrite. The edit is kept as a draft while it is
 * unsaved (stores/drafts.ts), so leaving the page loses nothing.
 */
import { useEffect, useRef } from 'react';
import { useMemory } from '../../stores/memory';
import { ConflictDiff } from './ConflictDiff';
import { when } from '../sessions/format';

export function Editor() {
  const doc = useMemory((s) => s.doc);
  const draft = useMemory((s) => s.draft);
  const setDraft = useMemory((s) => s.setDraft);
  const save = useMemory((s) => s.save);
  const cancel = useMemory((s) => s.cancelEdit);
  const discard = useMemory((s) => s.discardEdit);
  const keepEditing = useMemory((s) => s.keepEditing);
  const confirmDiscard = useMemory((s) => s.confirmDiscard);
  const restoredAt = useMemory((s) => s.restoredAt);
  const reload = useMemory((s) => s.reload);
  const saving = useMemory((s) => s.saving);
  const saveError = useMemory((s) => s.saveError);
  const changedOnDisk = useMemory((s) => s.changedOnDisk);
  const ref = useRef<HTMLTextAreaElement>(null);
  useEffect(() => ref.current?.focus(), []);
  if (!doc) return null;
  const dirty = draft !== doc.text;

  return (
    <div className="mem-editor">
      {changedOnDisk && (
        <div role="alert" className="mem-conflict">
          {saveError ?? `${doc.path} changed on disk while you were editing.`} Keep one of the two versions:
          <ConflictDiff path={doc.path} draft={draft} />
          <div className="row">
            <button
              type="button"
              onClick={() => {
                discard();
                void reload();
              }}
            >
              Discard my edit and reload
            </button>
            <button type="button" onClick={() => void save(true)} disabled={saving}>
              Overwrite with my edit
            </button>
          </div>
        </div>
      )}
      {restoredAt !== undefined && dirty && (
        <p role="status" className="muted" data-testid="draft-restored">
          Your unsaved edit from {when(restoredAt)} is back. Save it, or Cancel to discard it.
        </p>
      )}
      {confirmDiscard && (
        <div role="alertdialog" aria-label="Discard unsaved changes?" className="mem-conflict">
          Discard your unsaved changes to {doc.path}?
          <div className="row">
            <button type="button" onClick={discard}>
              Discard changes
            </button>
            <button type="button" onClick={() => { keepEditing(); ref.current?.focus(); }}>
              Keep editing
            </button>
          </div>
        </div>
      )}
      {saveError && !changedOnDisk && (
        <p role="alert" className="error">
          {saveError}
        </p>
      )}
      <textarea
        ref={ref}
        aria-label={`Edit ${doc.path}`}
        value={draft}
        spellCheck={false}
        onChange={(e) => setDraft(e.target.value)}
        onKeyDown={(e) => {
          if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === 's') {
            e.preventDefault();
            void save();
          }
          if (e.key === 'Escape') cancel();
        }}
      />
      <div className="row">
        <button type="button" onClick={() => void save()} disabled={saving || !dirty}>
          {saving ? 'Saving…' : 'Save'}
        </button>
        <button type="button" onClick={cancel} disabled={saving}>
          Cancel
        </button>
        <span className="muted">Ctrl/⌘+S saves, Esc cancels. Unsaved edits are kept while you look elsewhere; the file is replaced atomically.</span>
      </div>
    </div>
  );
}
