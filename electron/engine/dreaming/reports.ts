/**
 * Dreaming's files for people, found in the workspace (read-only): the Dream Diary
 * (`DREAMS.md`, or an existing `dreams.md`), the phase reports
 * `memory/dreaming/<phase>/YYYY-MM-DD.md`, the blocks dreaming manages inside daily notes
 * (`## Light Sleep` / `## REM Sleep` between `<!-- openclaw:dreaming:<phase>:start -->` and
 * `…:end -->`, OpenClaw's dreaming-markdown.ts), and the "not promoted" counts of the newest
 * deep report. Bounded: at most MAX_REPORTS files listed, MAX_TEXT bytes of one file read.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { DeepReportReasons, DreamingReportFile, DreamingReportText, ManagedBlock } from '../../../shared/types/dreaming';

export const MAX_REPORTS = 500;
export const MAX_TEXT = 2 * 1024 * 1024;
const DAILY = /^\d{4}-\d{2}-\d{2}\.md$/u;

function statFile(file: string): fs.Stats | undefined {
  try {
    const st = fs.lstatSync(file);
    return st.isFile() ? st : undefined;
  } catch {
    return undefined;
  }
}

function listDir(dir: string): fs.Dirent[] {
  try {
    return fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
}

/** The diary and phase reports of `workspace`, the diary first, then reports newest first. */
export function listReportFiles(workspace: string): DreamingReportFile[] {
  const out: DreamingReportFile[] = [];
  for (const name of ['DREAMS.md', 'dreams.md']) {
    const st = statFile(path.join(workspace, name));
    if (st) {
      out.push({ path: name, kind: 'diary', bytes: st.size, mtimeMs: st.mtimeMs });
      break;
    }
  }
  const root = path.join(workspace, 'memory', 'dreaming');
  const reports: DreamingReportFile[] = [];
  for (const phase of listDir(root)) {
    if (!phase.isDirectory()) continue;
    for (const f of listDir(path.join(root, phase.name))) {
      if (!f.isFile() || !DAILY.test(f.name) || reports.length >= MAX_REPORTS) continue;
      const st = statFile(path.join(root, phase.name, f.name));
      if (st) reports.push({ path: `memory/dreaming/${phase.name}/${f.name}`, kind: 'phase-report', phase: phase.name, date: f.name.slice(0, 10), bytes: st.size, mtimeMs: st.mtimeMs });
    }
  }
  reports.sort((a, b) => (b.date ?? '').localeCompare(a.date ?? '') || (a.phase ?? '').localeCompare(b.phase ?? ''));
  return [...out, ...reports];
}

/** Read one of the listed files (a path not listed is refused by the caller), bounded. */
export function readReportText(workspace: string, rel: string): DreamingReportText {
  const fd = fs.openSync(path.join(workspace, rel), 'r');
  try {
    const size = fs.fstatSync(fd).size;
    const n = Math.min(size, MAX_TEXT);
    const buf = Buffer.alloc(n);
    fs.readSync(fd, buf, 0, n, 0);
    return { path: rel, text: buf.toString('utf8'), truncated: size > MAX_TEXT };
  } finally {
    fs.closeSync(fd);
  }
}

/** The blocks dreaming manages in one note's text (lines 1-based, heading included). */
export function managedBlocksIn(rel: string, text: string): ManagedBlock[] {
  const lines = text.split(/\r?\n/u);
  const out: ManagedBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const start = /^<!--\s*openclaw:dreaming:([a-z-]+):start\s*-->$/u.exec((lines[i] ?? '').trim());
    if (!start) continue;
    const phase = start[1] ?? '';
    let end = i;
    while (end + 1 < lines.length && !new RegExp(`^<!--\\s*openclaw:dreaming:${phase}:end\\s*-->$`, 'u').test((lines[end + 1] ?? '').trim())) end++;
    end = Math.min(end + 1, lines.length - 1);
    // The heading dreaming writes right above its start marker (blank lines allowed between).
    let head = i - 1;
    while (head >= 0 && (lines[head] ?? '').trim() === '') head--;
    const heading = head >= 0 && /^##\s/u.test((lines[head] ?? '').trim()) ? (lines[head] ?? '').trim() : `${phase} (dreaming)`;
    out.push({ path: rel, heading, startLine: head >= 0 && heading === (lines[head] ?? '').trim() ? head + 1 : i + 1, endLine: end + 1 });
    i = end;
  }
  return out;
}

/** Managed blocks in the daily notes (`memory/YYYY-MM-DD.md`) of `workspace`. */
export function listManagedBlocks(workspace: string): ManagedBlock[] {
  const out: ManagedBlock[] = [];
  for (const f of listDir(path.join(workspace, 'memory'))) {
    if (!f.isFile() || !DAILY.test(f.name)) continue;
    const rel = `memory/${f.name}`;
    const st = statFile(path.join(workspace, rel));
    if (!st || st.size > MAX_TEXT) continue;
    const text = fs.readFileSync(path.join(workspace, rel), 'utf8');
    if (text.includes('openclaw:dreaming:')) out.push(...managedBlocksIn(rel, text));
  }
  return out.sort((a, b) => b.path.localeCompare(a.path) || a.startLine - b.startLine);
}

const REASON = /not promoted|rejected|skipped|threshold|filter/iu;

/**
 * The newest deep report's lines about candidates that were not promoted (OpenClaw writes
 * "- Not promoted: N candidate(s) (category: n, …)", counts without the rejected text), as
 * OpenClaw wrote them: from the newest `memory/dreaming/deep/` report, else from the
 * `## Deep Sleep` block of DREAMS.md (where inline storage puts it).
 */
export function deepReportReasons(workspace: string): DeepReportReasons | undefined {
  const files = listReportFiles(workspace);
  for (const f of files.filter((x) => x.phase === 'deep')) {
    const lines = readReportText(workspace, f.path).text.split(/\r?\n/u).map((l) => l.trim()).filter((l) => REASON.test(l));
    if (lines.length) return { path: f.path, date: f.date ?? '', lines };
  }
  const diary = files.find((f) => f.kind === 'diary');
  if (!diary) return undefined;
  const text = readReportText(workspace, diary.path).text;
  const block = /<!--\s*openclaw:dreaming:deep:start\s*-->([\s\S]*?)<!--\s*openclaw:dreaming:deep:end\s*-->/u.exec(text)?.[1] ?? '';
  const lines = block.split(/\r?\n/u).map((l) => l.trim()).filter((l) => REASON.test(l));
  return lines.length ? { path: diary.path, date: '', lines } : undefined;
}
