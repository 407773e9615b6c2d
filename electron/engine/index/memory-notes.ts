/**
 * New, rename and delete for memory notes, under the same path rules as reads
 * and writes (memory-paths.ts). Each step is atomic and never overwrites: a new note is
 * written to a temp file and hard-linked into place (link fails if the name exists), a rename
 * links the new name then unlinks the old one, a delete first checks the version the user
 * saw. MEMORY.md is the assistant's long-term memory and is never renamed or deleted here.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { MemoryFileText } from '../../../shared/types/search';
import { DEFAULT_FILE_MODE, fsyncDir, writeAllSync } from '../util/atomic-write';
import { MemoryConflictError } from './memory-files';
import { MemoryPathError, resolveMemoryPath, type MemoryPathRoots } from './memory-paths';

function refuseLongTerm(p: string, what: string): void {
  if (p.toLowerCase() === 'memory.md') throw new MemoryPathError('forbidden', `${JSON.stringify(p)}: refused: ${what} the long-term memory file is not allowed`);
}

function exists(abs: string): boolean {
  try {
    fs.lstatSync(abs);
    return true;
  } catch {
    return false;
  }
}

/** Create a note with `text`; refused when a file of that name exists. */
export function createMemoryNote(roots: MemoryPathRoots, input: string, text: string): MemoryFileText {
  const r = resolveMemoryPath(roots, input);
  if (exists(r.abs)) throw new MemoryConflictError(`${r.path} exists already: pick another name`);
  const dir = path.dirname(r.abs);
  fs.mkdirSync(dir, { recursive: true });
  const tmp = path.join(dir, `.${path.basename(r.abs)}.${process.pid}.${crypto.randomBytes(4).toString('hex')}.tmp`);
  const fd = fs.openSync(tmp, 'wx', DEFAULT_FILE_MODE);
  try {
    writeAllSync(fd, Buffer.from(text, 'utf8'));
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  try {
    fs.linkSync(tmp, r.abs);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') throw new MemoryConflictError(`${r.path} was created by someone else just now: pick another name`);
    throw err;
  } finally {
    fs.rmSync(tmp, { force: true });
  }
  fsyncDir(dir);
  const st = fs.statSync(r.abs);
  return { path: r.path, text, size: st.size, mtime: st.mtimeMs };
}

function checkVersion(abs: string, shown: string, expectedMtime: number | undefined): fs.Stats {
  let st: fs.Stats;
  try {
    st = fs.lstatSync(abs);
  } catch {
    throw new MemoryPathError('not_found', `${shown} does not exist (deleted or renamed on disk?)`);
  }
  if (!st.isFile()) throw new MemoryPathError('forbidden', `${shown}: refused: not a regular file`);
  if (expectedMtime !== undefined && Math.abs(st.mtimeMs - expectedMtime) > 0.5) {
    throw new MemoryConflictError(`${shown} changed on disk since it was opened: reload it first`);
  }
  return st;
}

/** Rename `from` to `to` (both memory paths); refused when `to` exists or `from` changed since `expectedMtime`. */
export function renameMemoryNote(roots: MemoryPathRoots, from: string, to: string, expectedMtime?: number): MemoryFileText {
  const a = resolveMemoryPath(roots, from);
  const b = resolveMemoryPath(roots, to);
  refuseLongTerm(a.path, 'renaming');
  refuseLongTerm(b.path, 'renaming onto');
  checkVersion(a.abs, a.path, expectedMtime);
  if (exists(b.abs)) throw new MemoryConflictError(`${b.path} exists already: pick another name`);
  fs.mkdirSync(path.dirname(b.abs), { recursive: true });
  try {
    // link + unlink: never replaces a file that appeared at the new name meanwhile.
    fs.linkSync(a.abs, b.abs);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') throw new MemoryConflictError(`${b.path} exists already: pick another name`);
    throw err;
  }
  fs.unlinkSync(a.abs);
  fsyncDir(path.dirname(b.abs));
  fsyncDir(path.dirname(a.abs));
  const st = fs.statSync(b.abs);
  return { path: b.path, text: fs.readFileSync(b.abs, 'utf8'), size: st.size, mtime: st.mtimeMs };
}

/** Delete a note; refused when it changed on disk since `expectedMtime`. */
export function deleteMemoryNote(roots: MemoryPathRoots, input: string, expectedMtime?: number): { path: string } {
  const r = resolveMemoryPath(roots, input);
  refuseLongTerm(r.path, 'deleting');
  checkVersion(r.abs, r.path, expectedMtime);
  fs.unlinkSync(r.abs);
  fsyncDir(path.dirname(r.abs));
  return { path: r.path };
}
