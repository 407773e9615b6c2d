/**
 * Writing a compaction (SPEC §4): first a checkpoint copy `<file>.checkpoint.<uuid>.jsonl`,
 * then the `compaction` entry appended like any other line — one O_APPEND write + fsync,
 * under the transcript's cross-process lock. It used to be copy, append, rename, which lost
 * every line another process (OpenClaw, `cairn chat`) appended between the copy and the
 * rename; an append in place cannot lose them, and a crash mid-write leaves a torn last line
 * that the parser already reports and the next append steps over. Lines other writers
 * appended since the plan was made are kept, and the entry hangs under the newest of them
 * so the branch stays whole.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { appendLinesDurable, serializeLine } from '../transcript/append';
import { parseTranscript } from '../transcript/parse';
import { prefixUnchanged, TranscriptChangedError, type ExpectedPrefix } from '../transcript/prefix';
import { removeStaleTempsIn } from '../util/stale-temps';
import { withFileLock } from '../util/file-lock';
import { assertOpenClawIdle } from '../util/openclaw-lock';
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
 * A copy, not a hard link: the compaction entry is appended to the same inode, so a link
 * would not keep the file as it was. COPYFILE_FICLONE makes it a cheap reflink where the
 * file system can (btrfs, XFS, APFS) and a plain copy elsewhere; written as a temp file and
 * renamed, so a killed copy never looks like a checkpoint.
 */
export function writeCheckpoint(file: string, keep = KEEP_CHECKPOINTS): string {
  const target = `${file}.checkpoint.${crypto.randomUUID()}.jsonl`;
  const tmp = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.${crypto.randomBytes(4).toString('hex')}.tmp`);
  try {
    fs.copyFileSync(file, tmp, fs.constants.COPYFILE_FICLONE);
    fs.renameSync(tmp, target);
  } catch (err) {
    fs.rmSync(tmp, { force: true });
    throw err;
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

/** The write itself, run under the transcript's lock (see writeCompaction). */
function writeLocked(file: string, entry: CompactionEntry, expect: ExpectedPrefix, opts: { checkpoint?: boolean; keepCheckpoints?: number }): WriteCompactionResult {
  // Temps any Cairn process left in this sessions dir when killed mid-write (checkpoint
  // copies are transcript-sized), not only this transcript's.
  removeStaleTempsIn(path.dirname(file));
  if (!prefixUnchanged(file, expect)) throw new TranscriptChangedError(file);
  // Before the checkpoint: refused while OpenClaw writes the session, with nothing created.
  assertOpenClawIdle(file);
  const checkpoint = opts.checkpoint === false ? undefined : writeCheckpoint(file, opts.keepCheckpoints);
  // Read the newest entry as late as possible: a line another process appends after this
  // is still kept (it lands after the entry), it just hangs under its own parent.
  const newer = lastEntryIdAfter(file, expect.bytes);
  const final: CompactionEntry = newer ? { ...entry, parentId: newer } : entry;
  try {
    appendLinesDurable(file, [serializeLine(final)]);
  } catch (err) {
    if (checkpoint) fs.rmSync(checkpoint, { force: true });
    throw err;
  }
  return { checkpoint, entry: final };
}

/**
 * Append `entry` to `file` after a checkpoint copy, under the transcript's lock (waited for
 * without blocking the thread; `signal` cancels the wait). `expect` is the snapshot the plan
 * was made from; if the file was rewritten since, nothing is written (TranscriptChangedError);
 * nor while OpenClaw holds its session write lock (OpenClawLockedError).
 */
export function writeCompaction(
  file: string,
  entry: CompactionEntry,
  expect: ExpectedPrefix,
  opts: { checkpoint?: boolean; keepCheckpoints?: number; signal?: AbortSignal | undefined } = {},
): Promise<WriteCompactionResult> {
  return withFileLock(file, () => writeLocked(file, entry, expect, opts), { signal: opts.signal });
}
