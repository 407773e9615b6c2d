/**
 * Path rules for reading and writing memory files (SPEC §8 `memory_get`, the memory browser,
 * `cairn get`): only Markdown files of the memory set — `MEMORY.md`, `memory.md`, `USER.md`
 * (OpenClaw 2026.9's curated user preferences),
 * `memory/**\/*.md`, and files under `extraPaths` — resolved by the engine inside the
 * workspace. `..`, absolute paths (except inside a configured extra path), symlinks anywhere
 * on the way, and non-`.md` files are refused with a message that says why.
 */
import fs from 'node:fs';
import path from 'node:path';
import { EngineError } from '../core/errors';
import { firstSymlinkOnTheWay, isInside } from '../util/path-inside';
import { resolveExtraPath } from './sources';
import { MAX_MEMORY_FILE_BYTES as MEMORY_FILE_MAX_BYTES, NotRegularFileError, readRegularFileRangeSync, readRegularFileSync } from '../util/safe-read';

/** A refused or unknown path: an EngineError, so it crosses the contract with its code as is. */
export class MemoryPathError extends EngineError {
  declare readonly code: 'forbidden' | 'not_found' | 'bad_request';
  constructor(code: 'forbidden' | 'not_found' | 'bad_request', message: string) {
    super(code, message);
    this.name = 'MemoryPathError';
  }
}

export interface MemoryPathRoots {
  workspace: string;
  extraPaths: readonly string[];
}

export interface ResolvedMemoryPath {
  /** Absolute file path. */
  abs: string;
  /** Forward-slash path as shown in results. */
  path: string;
}

/** Refuse a symlink at `abs` or at any directory between `root` and it (util/path-inside.ts). */
function assertNoSymlink(root: string, abs: string, shown: string): void {
  const link = firstSymlinkOnTheWay(root, abs);
  if (link !== undefined) {
    throw new MemoryPathError('forbidden', `${shown}: refused: ${link} is a symlink (memory files must be real files inside the workspace)`);
  }
}

/**
 * Check `input` against the memory set and resolve it. Throws {@link MemoryPathError}
 * (forbidden / bad_request) with the reason; existence is not checked here.
 */
export function resolveMemoryPath(roots: MemoryPathRoots, input: string): ResolvedMemoryPath {
  const shown = JSON.stringify(input);
  if (!input || input.includes('\0')) throw new MemoryPathError('bad_request', `${shown}: not a path`);
  const norm = input.replace(/\\/g, '/');
  if (norm.split('/').includes('..')) {
    throw new MemoryPathError('forbidden', `${shown}: refused: ".." is not allowed; use a path relative to the workspace such as memory/2024-05-08.md`);
  }
  if (!norm.toLowerCase().endsWith('.md')) {
    throw new MemoryPathError('forbidden', `${shown}: refused: only Markdown (.md) memory files can be read`);
  }
  const extras = roots.extraPaths.map((p) => resolveExtraPath(roots.workspace, p));
  if (path.isAbsolute(input) || /^[A-Za-z]:[\\/]/.test(input) || norm.startsWith('/')) {
    const abs = path.resolve(input);
    const extra = extras.find((e) => isInside(e, abs));
    if (!extra) {
      throw new MemoryPathError('forbidden', `${shown}: refused: absolute paths are not allowed; use a path relative to the workspace such as MEMORY.md`);
    }
    assertNoSymlink(path.dirname(extra), abs, shown);
    return { abs, path: abs.split(path.sep).join('/') };
  }
  const rel = norm.replace(/^\.\//, '');
  const abs = path.resolve(roots.workspace, rel);
  const inMemorySet =
    rel === 'MEMORY.md' || rel === 'memory.md' || rel === 'USER.md' || rel.startsWith('memory/') || extras.some((e) => isInside(e, abs));
  if (!isInside(roots.workspace, abs) || !inMemorySet) {
    throw new MemoryPathError('forbidden', `${shown}: refused: not a memory file (allowed: MEMORY.md, memory.md, USER.md, memory/**/*.md and extraPaths)`);
  }
  assertNoSymlink(roots.workspace, abs, shown);
  return { abs, path: rel };
}

/**
 * `read(abs)` on a memory file (after the rules above): not_found when missing, forbidden when
 * not a regular file — checked again on the open descriptor by `read`, as a path swapped for a
 * FIFO since the lstat must not block the engine's thread — bad_request over the size cap.
 */
function readChecked<T extends { size: number }>(roots: MemoryPathRoots, input: string, read: (abs: string) => T): { abs: string; path: string; got: T } {
  const r = resolveMemoryPath(roots, input);
  let st: fs.Stats;
  try {
    st = fs.lstatSync(r.abs);
  } catch {
    throw new MemoryPathError('not_found', `${JSON.stringify(input)}: no such memory file`);
  }
  if (!st.isFile()) throw new MemoryPathError('forbidden', `${JSON.stringify(input)}: refused: not a regular file`);
  let got: T;
  try {
    got = read(r.abs);
  } catch (err) {
    if (err instanceof NotRegularFileError) throw new MemoryPathError('forbidden', `${JSON.stringify(input)}: refused: not a regular file`);
    throw err;
  }
  if (got.size > MEMORY_FILE_MAX_BYTES) throw new MemoryPathError('bad_request', `${JSON.stringify(input)}: ${got.size} bytes is more than a memory file may be (${MEMORY_FILE_MAX_BYTES})`);
  return { ...r, got };
}

/** Read a memory file (after the rules above); not_found when missing. */
export function readMemoryFile(roots: MemoryPathRoots, input: string): { abs: string; path: string; text: string; size: number; mtime: number } {
  const { got, ...r } = readChecked(roots, input, (abs) => readRegularFileSync(abs, MEMORY_FILE_MAX_BYTES));
  return { ...r, text: got.text, size: got.size, mtime: got.mtimeMs };
}

/**
 * `limit` bytes of a memory file from byte `offset` (after the rules above), cut after the
 * page's last newline — or, in a line longer than the page, before a split UTF-8 character —
 * so pages join back into the file. `next` is where the following page starts (absent at the
 * end). Reads only the page: a 200 MB note is never loaded whole for it.
 */
export function readMemoryPage(roots: MemoryPathRoots, input: string, offset: number, limit: number): { path: string; text: string; size: number; mtime: number; offset: number; next?: number } {
  const { path: rel, got: page } = readChecked(roots, input, (abs) => readRegularFileRangeSync(abs, offset, limit));
  if (offset > page.size) throw new MemoryPathError('bad_request', `${JSON.stringify(input)}: offset ${offset} is past the end (the file has ${page.size} bytes)`);
  let buf = page.bytes;
  const end = offset + buf.length;
  if (end < page.size) {
    const nl = buf.lastIndexOf(0x0a);
    buf = nl >= 0 ? buf.subarray(0, nl + 1) : buf.subarray(0, utf8Boundary(buf));
  }
  const next = offset + buf.length;
  return { path: rel, text: buf.toString('utf8'), size: page.size, mtime: page.mtimeMs, offset, ...(next < page.size ? { next } : {}) };
}

/** The length of `buf` without a UTF-8 character its end splits. */
function utf8Boundary(buf: Buffer): number {
  let i = buf.length;
  // Back over at most 3 continuation bytes to the lead byte of the last character.
  while (i > 0 && i > buf.length - 4 && (buf[i - 1]! & 0xc0) === 0x80) i--;
  if (i === 0) return buf.length;
  const lead = buf[i - 1]!;
  const need = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
  return buf.length - (i - 1) >= need ? buf.length : i - 1;
}

/**
 * `memory_get {path, from?, lines?}`: the file, or `lines` lines from line `from` (1-based).
 */
export function memoryGet(roots: MemoryPathRoots, input: string, from?: number, lines?: number): { path: string; text: string } {
  const f = readMemoryFile(roots, input);
  if (from === undefined && lines === undefined) return { path: f.path, text: f.text };
  const all = f.text.split('\n');
  const start = Math.max(1, from ?? 1);
  if (start > all.length) {
    throw new MemoryPathError('bad_request', `${JSON.stringify(input)}: line ${start} is past the end (the file has ${all.length} lines)`);
  }
  const slice = lines === undefined ? all.slice(start - 1) : all.slice(start - 1, start - 1 + Math.max(0, lines));
  return { path: f.path, text: slice.join('\n') };
}
