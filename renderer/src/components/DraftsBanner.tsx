/**
 * The warning shown on every other page while a memory edit is unsaved: the edit is kept as a
 * draft, and one click goes back to it. (Leaving the Memory page never discards an edit.)
 */
import { memoryHref } from '../stores/memory';
import { useApp } from '../stores/app';
import { useDrafts } from '../stores/drafts';

export function DraftsBanner() {
  const page = useApp((s) => s.page);
  const paths = Object.keys(useDrafts((s) => s.drafts));
  if (page === 'memory' || paths.length === 0) return null;
  const first = paths[0] as string;
  return (
    <div className="banner banner-warn" role="status" data-testid="drafts-banner">
      {paths.length === 1 ? `Unsaved edit in ${first}` : `Unsaved edits in ${paths.length} files (${paths.join(', ')})`}: kept as a draft
      until you save or discard it.{' '}
      <a href={memoryHref(first)} className="link">
        Return to {paths.length === 1 ? 'it' : first}
      </a>
    </div>
  );
}
