/**
 * Writing a compaction (SPEC §4): first a checkpoint copy `<file>.checkpoint.<uuid>.jsonl`,
 * then the `compaction` entry appended atomically (copy, append, fsync, rename). Lines that
 * other writers appended since the plan was made are kept, and the entry hangs under the
 * newest of them so the branch stays whole.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { serializeLine } from '../transcript/append';
import { parseTranscript } from '../transcript/parse';
import { appendAtomic, prefixFingerprint, removeStaleTemps, TranscriptChangedError, type ExpectedPrefix } from '../transcript/rewrite';
import type { CompactionEntry } from '../transcript/types';

/** How many checkpoints of one transcript are kept (oldest removed first). */
export const KEEP_CHECKPOINTS = 3;

export function checkpointPattern(file: string): { dir: string; prefix: string } {
  return { dir: path.dirname(file), prefix: `${path.basename(file)}.checkpoint.` };
}

/** Checkpoint files of `file`, oldest first. */
export function listCheckpoints(file: string): string[] {
  const { dir, prefix } = checkpointPattern(file);
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return [];
  }
  return names
    .filter((n) => n.startsWith(prefix) && n.endsWith('.jsonl'))
    .map((n) => path.join(dir, n))
    .map((p) => ({ p, t: fs.statSync(p).mtimeMs }))
    .sort((a, b) => a.t - b.t)
    .map((x) => x.p);
}

/**
 * Keep the current bytes of `file` as a checkpoint and drop the oldest beyond `keep`.
 * The compaction replaces `file` by a new inode (rename), so the old inode is never written
 * again: a hard link to it is an exact copy at no cost. Where links are not possible (some
 * file systems), the file is copied.
 */
export function writeCheckpoint(file: string, keep = KEEP_CHECKPOINTS): string {
  const target = `${file}.checkpoint.${crypto.randomUUID()}.jsonl`;
  try {
    fs.linkSync(file, target);
  } catch {
    const tmp = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.${crypto.randomBytes(4).toString('hex')}.tmp`);
    try {
      fs.copyFileSync(file, tmp);
      fs.renameSync(tmp, target);
    } catch (err) {
      fs.rmSync(tmp, { force: true });
      throw err;
    }
  }
  const all = listCheckpoints(file).filter((p) => p !== target);
  for (const old of all.slice(0, Math.max(0, all.length - (keep - 1)))) fs.rmSync(old, { force: true });
  return target;
}

/** The id of the last entry in the bytes appended after `from` (undefined when none). */
function lastEntryIdAfter(file: string, from: number): string | undefined {
  const size = fs.statSync(file).size;
  if (size <= from) return undefined;
  const buf = Buffer.alloc(size - from);
  const fd = fs.openSync(file, 'r');
  try {
    fs.readSync(fd, buf, 0, buf.length, from);
  } finally {
    fs.closeSync(fd);
  }
  // The tail starts at a line boundary (the snapshot ended with "\n", or the torn line was
  // already part of the snapshot). A header-less parse still yields the entries.
  const tail = parseTranscript(file, buf.toString('utf8'), buf.length);
  return tail.entries.at(-1)?.id;
}

export interface WriteCompactionResult {
  checkpoint: string | undefined;
  entry: CompactionEntry;
}

/**
 * Append `entry` to `file` atomically after a checkpoint copy. `expect` is the snapshot the
 * plan was made from; if the file was rewritten since, nothing is written
 * (TranscriptChangedError).
 */
export function writeCompaction(file: string, entry: CompactionEntry, expect: ExpectedPrefix, opts: { checkpoint?: boolean; keepCheckpoints?: number } = {}): WriteCompactionResult {
  removeStaleTemps(file);
  if (fs.statSync(file).size < expect.bytes || !prefixFingerprint(file, expect.bytes).tail.equals(expect.tail)) {
    throw new TranscriptChangedError(file);
  }
  const newer = lastEntryIdAfter(file, expect.bytes);
  const final: CompactionEntry = newer ? { ...entry, parentId: newer } : entry;
  const checkpoint = opts.checkpoint === false ? undefined : writeCheckpoint(file, opts.keepCheckpoints);
  try {
    appendAtomic(file, [serializeLine(final)], expect);
  } catch (err) {
    if (checkpoint) fs.rmSync(checkpoint, { force: true });
    throw err;
  }
  return { checkpoint, entry: final };
}
