/**
 * A transcript opened for writing: remembers the leaf (the entry new entries hang under) and
 * the ids in use, so the turn loop can append entries without re-reading the file. Appends
 * are durable (fsync) and crash-safe (see append.ts).
 */
import type { Message } from '../../../shared/types/messages';
import { appendLinesDurable, serializeLine } from './append';
import { newEntryId, isoNow } from './ids';
import { readTranscript } from './read';
import type { Entry, Transcript } from './types';

/** What the caller gives for a new entry: everything but id, parentId and timestamp. */
export type NewEntry = { type: string; [field: string]: unknown } & { id?: never; parentId?: never };

export interface SessionFile {
  readonly file: string;
  /**
   * The transcript, kept in step with this handle's appends (entries, lines, byte size), so a
   * compaction can use it without parsing the file again. When another writer appended too,
   * its `bytes` no longer matches the file and readers re-read.
   */
  transcript(): Transcript;
  /** Entries appended through this handle since it was (re)read, in order. */
  readonly appended: Entry[];
  /**
   * Re-read the file (after a compaction or another writer appended): the leaf becomes the
   * file's last entry again.
   */
  reload(): Transcript;
  /** The id new entries hang under (null before the first entry). */
  leafId(): string | null;
  /** Append entries (one fsync for all); returns them with id, parentId and timestamp. */
  append(...entries: NewEntry[]): Entry[];
  /** Append a `message` entry. */
  appendMessage(message: Message): Entry;
  /** Append a `custom` entry (e.g. `openclaw.cache-ttl`). */
  appendCustom(customType: string, data: unknown): Entry;
}

/** Open `file` for appending. `now` pins the clock (tests). */
export function openSessionFile(file: string, opts: { now?: () => Date } = {}): SessionFile {
  let transcript = readTranscript(file);
  let leaf: string | null = transcript.entries.at(-1)?.id ?? null;
  const appended: Entry[] = [];
  const now = opts.now ?? (() => new Date());
  const handle: SessionFile = {
    file,
    transcript: () => transcript,
    appended,
    reload() {
      transcript = readTranscript(file);
      leaf = transcript.entries.at(-1)?.id ?? null;
      appended.length = 0;
      return transcript;
    },
    leafId: () => leaf,
    append(...entries) {
      const made: Entry[] = [];
      let parent = leaf;
      const taken = new Set<string>();
      const ids = { has: (id: string) => taken.has(id) || transcript.byId.has(id) };
      for (const e of entries) {
        const id = newEntryId(ids);
        taken.add(id);
        const { type, ...rest } = e;
        const entry = { type, id, parentId: parent, timestamp: isoNow(now()), ...rest } as Entry;
        made.push(entry);
        parent = id;
      }
      const lines = made.map(serializeLine);
      const expected = transcript.bytes + (transcript.endsWithNewline ? 0 : 1) + Buffer.byteLength(lines.join('\n'), 'utf8') + 1;
      const size = appendLinesDurable(file, lines);
      made.forEach((entry, k) => {
        transcript.byId.set(entry.id, transcript.entries.length);
        transcript.entries.push(entry);
        transcript.rawLines.push(lines[k] as string);
        transcript.entryLines.push(transcript.rawLines.length);
      });
      transcript.endsWithNewline = true;
      transcript.bytes = size === expected ? size : -1;
      leaf = parent;
      appended.push(...made);
      return made;
    },
    appendMessage: (message) => handle.append({ type: 'message', message })[0] as Entry,
    appendCustom: (customType, data) => handle.append({ type: 'custom', customType, data })[0] as Entry,
  };
  return handle;
}
