/**
 * The head of an open memory file: its path with the cited lines (copyable as a citation),
 * open outside, size and time, the view switch and Edit (disabled with the reason why).
 */
import { isBigText } from './BigSourceView';
import { CopyButton } from '../../components/CopyButton';
import { OpenOutside } from './OpenOutside';
import { canWrite, READ_ONLY_NOTE } from '../../door';
import type { LineRange } from '../../stores/memory';
import { when } from '../sessions/format';

function fmtSize(n: number): string {
  return n < 1024 ? `${n} B` : `${(n / 1024).toFixed(1)} KB`;
}

interface Props {
  doc: { path: string; text: string; size: number; mtime: number };
  cite: LineRange | undefined;
  editing: boolean;
  writable: boolean;
  mode: 'rendered' | 'source';
  setMode: (mode: 'rendered' | 'source') => void;
  onEdit: () => void;
}

export function DocHead({ doc, cite, editing, writable, mode, setMode, onEdit }: Props) {
  return (
    <div className="mem-doc-head">
      <code className="mem-path" data-testid="memory-path">
        {doc.path}
        {cite ? `#L${cite.from}-L${cite.to}` : ''}
      </code>
      <CopyButton text={`${doc.path}${cite ? `#L${cite.from}-L${cite.to}` : ''}`} label="Copy citation" />
      {canWrite && <OpenOutside path={doc.path} />}
      {!editing && <span className="muted mem-cite-hint">Click a line to cite it, Shift+click for a range</span>}
      <span className="muted">
        {fmtSize(doc.size)} · changed {when(doc.mtime)}
      </span>
      {!editing && (
        <span className="mem-actions">
          <span role="group" aria-label="View" className="seg">
            <button type="button" aria-pressed={mode === 'rendered'} onClick={() => setMode('rendered')}>
              Rendered
            </button>
            <button type="button" aria-pressed={mode === 'source'} onClick={() => setMode('source')}>
              Source
            </button>
          </span>
          <button
            type="button"
            onClick={onEdit}
            disabled={!writable || isBigText(doc.text)}
            title={
              !writable
                ? canWrite
                  ? 'Read-only: turn writing on in Settings'
                  : READ_ONLY_NOTE
                : isBigText(doc.text)
                  ? 'Too large to edit here without freezing the window: edit it in your text editor'
                  : 'Edit this file (saved atomically)'
            }
          >
            Edit
          </button>
        </span>
      )}
    </div>
  );
}
