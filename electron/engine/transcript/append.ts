/**
 * Durable, crash-safe appends. Each append is one write() of whole lines followed by fsync.
 * If a previous writer was killed mid-line, the file does not end with "\n": the torn line
 * stays (it is reported as malformed on load) and the new lines start on a fresh line, so
 * one torn write can never swallow the next entry.
 */
import fs from 'node:fs';
import path from 'node:path';
import { writeAllSync, writeFileAtomicSync } from '../util/atomic-write';
import { assertOpenClawIdle } from '../util/openclaw-lock';
import type { SessionHeader } from './types';
import { EngineError } from '../core/errors';

/** Serialise one entry as a JSONL line (no newline). */
export function serializeLine(value: unknown): string {
  const line = JSON.stringify(value);
  if (line === undefined) throw new Error('cannot serialise an undefined entry');
  return line;
}

/** True when the file is empty or ends with "\n" (read through an open fd). */
function endsCleanly(fd: number): boolean {
  const size = fs.fstatSync(fd).size;
  if (size === 0) return true;
  const b = Buffer.alloc(1);
  fs.readSync(fd, b, 0, 1, size - 1);
  return b[0] === 0x0a;
}

/**
 * Append already-serialised lines to `file` and fsync. Returns the file size after the write.
 * The file must exist (a transcript always has its header). Refused (OpenClawLockedError,
 * nothing written) while OpenClaw holds its session write lock on the file.
 */
export function appendLinesDurable(file: string, lines: string[]): number {
  if (lines.length === 0) return fs.statSync(file).size;
  if (!fs.existsSync(file)) throw new EngineError('not_found', `transcript not found: ${file}`);
  // Every transcript append of Cairn's (chat lines, compaction entries) passes here.
  assertOpenClawIdle(file);
  // O_APPEND: every write lands at the end, even with another appender on the file.
  const fd = fs.openSync(file, 'a+');
  try {
    const prefix = endsCleanly(fd) ? '' : '\n';
    const buf = Buffer.from(`${prefix}${lines.join('\n')}\n`, 'utf8');
    writeAllSync(fd, buf);
    fs.fsyncSync(fd);
    return fs.fstatSync(fd).size;
  } finally {
    fs.closeSync(fd);
  }
}

/** Create a new transcript holding only its header (atomic; refuses to overwrite). */
export function createTranscriptFile(file: string, header: Omit<SessionHeader, 'type' | 'version'> & { version?: number }): SessionHeader {
  if (fs.existsSync(file)) throw new EngineError('conflict', `transcript already exists: ${file}`);
  const h: SessionHeader = { type: 'session', version: header.version ?? 3, ...header } as SessionHeader;
  fs.mkdirSync(path.dirname(file), { recursive: true });
  writeFileAtomicSync(file, `${serializeLine(h)}\n`);
  return h;
}
