/**
 * The transcript as it is now, without re-reading the file: what the session handle last
 * read plus the entries it appended since. A turn rebuilds its context several times per
 * tool round; re-parsing a 50 MB transcript each time would cost ~0.5 s apiece. The file is
 * re-read only after something else rewrote it (a compaction).
 */
import type { SessionFile } from '../transcript/session-file';
import type { Transcript } from '../transcript/types';

/** The handle's transcript with its appended entries, as if just read from disk. */
export function liveTranscript(s: SessionFile): Transcript {
  const t = s.transcript();
  if (s.appended.length === 0) return t;
  const byId = new Map(t.byId);
  s.appended.forEach((e, i) => byId.set(e.id, t.entries.length + i));
  return { ...t, entries: [...t.entries, ...s.appended], byId };
}
