/**
 * Session transcripts exported as Markdown for QMD's `sessions` collection (SPEC §9).
 *
 * One `.md` file per `<session>.jsonl`, holding the user and assistant text only, secrets
 * redacted (the same rendering and redaction as the built-in sessions source,
 * index/session-text.ts). Line N of the Markdown is JSONL line N — line 1 is a title, a
 * message is one line, everything else is blank — so a QMD hit's line range *is* the
 * transcript's line range and results cite `sessions/<id>.jsonl#L<s>-L<e>` exactly as the
 * built-in index does.
 *
 * Cheap when nothing changed: a transcript whose size and mtime match the manifest is not
 * read; a file is rewritten (atomically) only when its text differs.
 */
import fs from 'node:fs';
import path from 'node:path';
import { renderSession } from '../index/session-text';
import { writeFileAtomicSync } from '../util/atomic-write';
import { readHomeState, writeHomeState, type QmdHome } from './home';

export interface ExportResult {
  /** Markdown files written (new or changed transcripts). */
  written: number;
  /** Markdown files removed (their transcript is gone). */
  removed: number;
  /** Transcripts skipped because size and mtime were unchanged (or the text was the same). */
  unchanged: number;
}

/** Render one transcript as line-aligned Markdown. */
export function transcriptMarkdown(name: string, jsonl: string): string {
  const { lines, dayByLine } = renderSession(jsonl);
  const firstDay = [...dayByLine.values()].sort()[0];
  const out: string[] = [`# Session ${name}${firstDay ? ` (${firstDay})` : ''}`];
  for (const l of lines) {
    // Line 1 is the JSONL header, never a message; anything there keeps the title.
    if (l.lineNo < 2) continue;
    while (out.length < l.lineNo - 1) out.push('');
    out.push(l.text);
  }
  return `${out.join('\n')}\n`;
}

function transcriptNames(sessionsDir: string): string[] {
  try {
    return fs
      .readdirSync(sessionsDir, { withFileTypes: true })
      .filter((e) => e.isFile() && e.name.endsWith('.jsonl') && !e.name.includes('.checkpoint.'))
      .map((e) => e.name)
      .sort();
  } catch {
    return [];
  }
}

/**
 * Bring `home.sessionsDir` in line with the transcripts in `sessionsDir`: export new and
 * changed ones, delete exports whose transcript is gone. Idempotent.
 */
export function exportTranscripts(sessionsDir: string, home: QmdHome): ExportResult {
  fs.mkdirSync(home.sessionsDir, { recursive: true });
  const state = readHomeState(home);
  const before = state.exported ?? {};
  const after: Record<string, { size: number; mtimeMs: number }> = {};
  const res: ExportResult = { written: 0, removed: 0, unchanged: 0 };
  const names = transcriptNames(sessionsDir);
  for (const name of names) {
    const src = path.join(sessionsDir, name);
    const dest = path.join(home.sessionsDir, name.replace(/\.jsonl$/, '.md'));
    let st: fs.Stats;
    try {
      st = fs.statSync(src);
    } catch {
      continue; // deleted between readdir and stat
    }
    const mark = { size: st.size, mtimeMs: st.mtimeMs };
    const prev = before[name];
    if (prev && prev.size === mark.size && prev.mtimeMs === mark.mtimeMs && fs.existsSync(dest)) {
      after[name] = mark;
      res.unchanged++;
      continue;
    }
    let text: string;
    try {
      text = transcriptMarkdown(name.replace(/\.jsonl$/, ''), fs.readFileSync(src, 'utf8'));
    } catch {
      continue; // unreadable now; tried again next time
    }
    let current: string | undefined;
    try {
      current = fs.readFileSync(dest, 'utf8');
    } catch {
      current = undefined;
    }
    if (current === text) res.unchanged++;
    else {
      writeFileAtomicSync(dest, text);
      res.written++;
    }
    after[name] = mark;
  }
  const keep = new Set(names.map((n) => n.replace(/\.jsonl$/, '.md')));
  for (const f of fs.readdirSync(home.sessionsDir)) {
    if (f.endsWith('.md') && !keep.has(f)) {
      fs.rmSync(path.join(home.sessionsDir, f), { force: true });
      res.removed++;
    }
  }
  if (res.written || res.removed || JSON.stringify(before) !== JSON.stringify(after)) writeHomeState(home, { exported: after });
  return res;
}
