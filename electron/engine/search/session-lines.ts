/**
 * A past session's lines as its citations number them (issue 37): a session chunk holds only
 * the rendered `User: …` / `Assistant: …` lines (index/session-text.ts), while its range counts
 * every JSONL line — tool calls, tool results, custom entries — so the chunk's text alone does
 * not say which line is which. For a session result whose lines must be cited exactly, the
 * transcript is rendered again, from the sessions dir or OpenClaw's SQLite store (the sources
 * the index listed it from), and its rendered lines in the range are numbered. Only the
 * returned session results whose chunk text does not number itself are read this way.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { SourceRoots } from '../index/sources';
import { renderSession, renderSessionLines } from '../index/session-text';
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
      rendered = renderSession(await fs.promises.readFile(file, 'utf8'), name);
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
