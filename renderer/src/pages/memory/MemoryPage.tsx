/**
 * Memory browser: the file list on the left; the open file rendered with line numbers (or as
 * numbered source), the cited lines highlighted; editing with an atomic, conflict-checked save
 * when the state dir is writable. Driven by the URL hash, so citations link straight here.
 * Two more views in tabs (`?view=history|dreams`): MEMORY.md's history and dreaming's reports.
 */
import { useEffect, useRef, useState } from 'react';
import { api } from '../../api';
import { useApp } from '../../stores/app';
import { parseMemoryHash, useMemory } from '../../stores/memory';
import { useStateInfo } from '../../stores/state';
import { canWrite, READ_ONLY_NOTE } from '../../door';
import { FileList } from './FileList';
import { RenderedView, SourceView } from './MarkdownView';
import { Editor } from './Editor';
import { NoteActions } from './NoteActions';
import { DocHead } from './DocHead';
import { HealthPanel } from './HealthPanel';
import { pickLines } from './line-pick';
import type { LineRange } from '../../stores/memory';
import { MemoryHistory } from './MemoryHistory';
import { DreamingBlocksNote, DreamingReports } from './DreamingReports';
import { MemoryViewTabs, useMemoryView } from './MemoryViewTabs';
import './memory.css';
import './dreaming.css';

export function MemoryPage() {
  const files = useMemory((s) => s.files);
  const listed = useMemory((s) => s.listed);
  const listError = useMemory((s) => s.listError);
  const doc = useMemory((s) => s.doc);
  const readError = useMemory((s) => s.readError);
  const range = useMemory((s) => s.range);
  const editing = useMemory((s) => s.editing);
  const startEdit = useMemory((s) => s.startEdit);
  const info = useStateInfo((s) => s.info);
  const writable = canWrite && (info?.writable ?? false);
  const go = useApp((s) => s.go);
  const [mode, setMode] = useState<'rendered' | 'source'>('rendered');
  // Lines the user picked to cite (click / Shift+click / selection); the cited range otherwise.
  const [picked, setPicked] = useState<LineRange | undefined>();
  const viewRef = useRef<HTMLDivElement>(null);
  useEffect(() => setPicked(undefined), [doc?.path, range]);
  const cite = picked ?? range;

  useMemoryLocation();
  const view = useMemoryView();

  return (
    <section className="page mem-page" aria-labelledby="memory-title">
      <header className="page-header">
        <h1 id="memory-title">Memory</h1>
        {!canWrite && (
          <span className="mem-ro" role="note" data-testid="tab-read-only">
            {READ_ONLY_NOTE}
          </span>
        )}
        {canWrite && info && !writable && (
          <span className="mem-ro" role="note">
            Read-only —{' '}
            <button type="button" className="link" onClick={() => go('settings')}>
              turn writing on in Settings
            </button>
          </span>
        )}
      </header>
      <MemoryViewTabs view={view} />
      {view === 'history' && <MemoryHistory />}
      {view === 'dreams' && <DreamingReports />}
      {view === 'files' && <NoteActions writable={writable} />}
      {view === 'files' && <HealthPanel />}
      {listError && (
        <p role="alert" className="error">
          Could not list memory files: {listError}
        </p>
      )}
      <div className="mem-layout" hidden={view !== 'files'}>
        {listed && <FileList files={files} selected={doc?.path} />}
        <article className="mem-doc" aria-label={doc ? doc.path : 'No file open'}>
          {readError && (
            <p role="alert" className="error">
              Could not open {readError}
            </p>
          )}
          {!doc && !readError && <p className="empty">Pick a file on the left: MEMORY.md, a daily note from the calendar, or a note.</p>}
          {doc && (
            <>
              <DocHead doc={doc} cite={cite} editing={editing} writable={writable} mode={mode} setMode={setMode} onEdit={startEdit} />
              {!editing && <DreamingBlocksNote path={doc.path} text={doc.text} view={viewRef} />}
              {editing ? (
                <Editor />
              ) : (
                <div
                  ref={viewRef}
                  className="mem-view"
                  onClick={(ev) => viewRef.current && setPicked((prev) => pickLines(viewRef.current as HTMLElement, ev, prev))}
                >
                  {mode === 'rendered' ? <RenderedView text={doc.text} range={range} annotations={doc.annotations} provenance={doc.provenance} /> : <SourceView text={doc.text} range={range} annotations={doc.annotations} provenance={doc.provenance} />}
                </div>
              )}
            </>
          )}
        </article>
      </div>
    </section>
  );
}

/** The file and lines the URL hash names are opened, and kept in step with the hash and with edits on disk. */
function useMemoryLocation(): void {
  useEffect(() => {
    const { loadList, open, onChanged } = useMemory.getState();
    const sync = () => {
      const loc = parseMemoryHash(window.location.hash);
      // No file asked for (e.g. the rail): back to the file open before, else MEMORY.md, the
      // assistant's long-term memory.
      void open(loc.path ? loc : { path: useMemory.getState().doc?.path ?? 'MEMORY.md', range: undefined });
    };
    void loadList();
    void useStateInfo.getState().load();
    sync();
    window.addEventListener('hashchange', sync);
    const off = api.on('memory.changed', (e) => onChanged(e.paths));
    return () => {
      window.removeEventListener('hashchange', sync);
      off();
    };
  }, []);
}
