/**
 * A past session's lines as its citations number them: a session chunk holds only
 * the rendered `User: …` / `Assistant: …` lines (index/session-text.ts), while its range counts
 * every JSONL line — tool calls, tool results, custom entries — so the chunk's text alone does
 * not say which line is which. For a session result whose lines must be cited exactly, the
 * cited JSONL lines are read (up to the last one, block by block) and rendered as the index
 * renders them; a session of OpenClaw's SQLite store is rendered from the store. Only the
 * returned session results whose chunk text does not number itself are read this way.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { SourceRoots } from '../index/sources';
import { renderEntry, renderSessionLines } from '../index/session-text';
import type { Entry } from '../transcript/types';
import type { NumberedLine } from './lines';

/** Lines `from`..`to` of the session `rel` (`sessions/<file>.jsonl`) as rendered, or null when it cannot be read. */
export type SessionLines = (rel: string, from: number, to: number) => Promise<NumberedLine[] | null>;

/** The session-line reader over an index's source roots. */
export function sessionLinesFor(roots: SourceRoots): SessionLines {
  return async (rel, from, to) => {
    const name = rel.slice('sessions/'.length);
    if (!rel.startsWith('sessions/') || name.includes('/') || name.includes('\\')) return null;
    let rendered;
    const file = path.join(roots.sessionsDir, name);
    try {
      // Only the cited lines are parsed: a transcript may be megabytes of tool output.
      return rangeLines(readLines(file, to), from, to);
    } catch {
      // Not a JSONL file of the sessions dir: a session of OpenClaw's SQLite store, maybe.
      const store = roots.storeSessions ? (await roots.storeSessions()).find((s) => s.path === rel && s.virtual) : undefined;
      if (!store?.virtual) return null;
      try {
        const { text, lineNumbers } = store.virtual.read();
        rendered = renderSessionLines(name, text.split('\n'), lineNumbers);
      } catch {
        return null;
      }
    }
    const out = rendered.lines.filter((l) => l.lineNo >= from && l.lineNo <= to).map((l) => ({ line: l.lineNo, text: l.text }));
    return out.length ? out : null;
  };
}

/**
 * Lines `from`..`to` (1-based) of a JSONL transcript rendered as the index renders them (one
 * `User: …` / `Assistant: …` line per entry, index/session-text.ts `renderEntry`), skipping
 * lines that render nothing (tool calls and results, custom entries) or do not parse.
 */
function rangeLines(jsonl: string, from: number, to: number): NumberedLine[] | null {
  let at = 0;
  for (let n = 1; n < from; n++) {
    const nl = jsonl.indexOf('\n', at);
    if (nl < 0) return null;
    at = nl + 1;
  }
  const out: NumberedLine[] = [];
  for (let n = from; n <= to && at <= jsonl.length; n++) {
    const nl = jsonl.indexOf('\n', at);
    const raw = jsonl.slice(at, nl < 0 ? jsonl.length : nl);
    at = nl < 0 ? jsonl.length + 1 : nl + 1;
    let entry: unknown;
    try {
      entry = JSON.parse(raw);
    } catch {
      continue; // the parser skips it too (and reports it): it is not indexed
    }
    if (typeof entry !== 'object' || entry === null) continue;
    const text = renderEntry(entry as Entry);
    if (text !== undefined) out.push({ line: n, text });
  }
  return out.length ? out : null;
}

/** Block size of {@link readLines}. */
const BLOCK = 64 * 1024;

/**
 * The first `count` lines of `file` (or all of it), read block by block: a cited range near the
 * start of a long transcript does not cost the whole file. Decoded once at the end, so a
 * character split across two blocks stays whole. Synchronous: a few page-cache reads cost
 * less than the awaits between them (measured at 100k chunks: bench/search.ts).
 */
function readLines(file: string, count: number): string {
  const fd = fs.openSync(file, 'r');
  try {
    const parts: Buffer[] = [];
    let lines = 0;
    for (;;) {
      const buf = Buffer.allocUnsafe(BLOCK);
      const bytesRead = fs.readSync(fd, buf, 0, BLOCK, null);
      if (bytesRead === 0) break;
      const part = buf.subarray(0, bytesRead);
      parts.push(part);
      for (let i = part.indexOf(10); i >= 0; i = part.indexOf(10, i + 1)) lines++;
      if (lines >= count) break;
    }
    return Buffer.concat(parts).toString('utf8');
  } finally {
    fs.closeSync(fd);
  }
}
