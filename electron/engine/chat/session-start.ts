/**
 * The context a session opens with (SPEC §5.1): the system prompt, then MEMORY.md and the
 * daily notes of today and yesterday (by file-name date, in the user's time zone). It is
 * rebuilt for every model call, so an edit to MEMORY.md shows up on the next turn; older
 * notes are reached through memory_search.
 */
import fs from 'node:fs';
import path from 'node:path';
import { todayIn } from '../compaction/flush-tools';
import { readRegularFileSync } from '../util/safe-read';

/** What the assistant is told about itself and its tools. */
export const DEFAULT_SYSTEM_PROMPT = [
  'You are a personal assistant with a long-term memory kept as Markdown files in your workspace.',
  'MEMORY.md holds durable facts, preferences and decisions; memory/YYYY-MM-DD.md holds daily notes.',
  'Use memory_search to recall anything older than the notes below (ask in words or exact tokens) and memory_get to read a cited range.',
  'Use read, write and edit for files in the workspace; record lasting facts in MEMORY.md or today\'s daily note.',
  'Copy identifiers (paths, ids, hashes, URLs, ports) exactly.',
].join('\n');

/** Longest part of one memory file put into the prompt; the rest is reachable with read. */
export const START_FILE_MAX_CHARS = 20_000;

/** One memory file put into the session-start context. */
export interface StartFile {
  /** Workspace-relative path. */
  path: string;
  label: string;
  chars: number;
  truncated: boolean;
}

/** The session-start context: the system prompt and what went into it. */
export interface SessionStart {
  system: string;
  files: StartFile[];
  today: string;
  yesterday: string;
}

/** The day before `day` (YYYY-MM-DD), calendar arithmetic in UTC so no zone shifts it. */
export function dayBefore(day: string): string {
  const d = new Date(`${day}T12:00:00Z`);
  d.setUTCDate(d.getUTCDate() - 1);
  return d.toISOString().slice(0, 10);
}

function readCapped(file: string): { text: string; truncated: boolean } | undefined {
  let st: fs.Stats;
  try {
    st = fs.lstatSync(file);
  } catch {
    return undefined;
  }
  // Symlinks are skipped, as for the memory index (SPEC §6).
  if (!st.isFile()) return undefined;
  let text: string;
  let cut: boolean;
  try {
    // Bytes enough for START_FILE_MAX_CHARS of any text; opened so a FIFO cannot block.
    const r = readRegularFileSync(file, START_FILE_MAX_CHARS * 4);
    text = r.text;
    cut = r.truncated;
  } catch {
    return undefined; // swapped for a non-file (or removed) since the lstat
  }
  if (text.length <= START_FILE_MAX_CHARS && !cut) return { text, truncated: false };
  return { text: text.slice(0, START_FILE_MAX_CHARS), truncated: true };
}

/** Build the system prompt with the session-start memory. */
export function buildSessionStart(opts: { workspace: string; now: Date; timeZone?: string | undefined; basePrompt?: string | undefined }): SessionStart {
  const today = todayIn(opts.now, opts.timeZone);
  const yesterday = dayBefore(today);
  const parts = [opts.basePrompt ?? DEFAULT_SYSTEM_PROMPT, `Today is ${today}. Your workspace is ${opts.workspace}.`];
  const files: StartFile[] = [];
  const memoryName = ['MEMORY.md', 'memory.md'].find((n) => fs.existsSync(path.join(opts.workspace, n)));
  const wanted: { rel: string; label: string }[] = [
    ...(memoryName ? [{ rel: memoryName, label: 'Long-term memory' }] : []),
    { rel: `memory/${today}.md`, label: 'Daily notes, today' },
    { rel: `memory/${yesterday}.md`, label: 'Daily notes, yesterday' },
  ];
  for (const w of wanted) {
    const got = readCapped(path.join(opts.workspace, w.rel));
    if (!got) continue;
    const note = got.truncated ? `\n[…truncated at ${START_FILE_MAX_CHARS} chars; read ${w.rel} for the rest]` : '';
    parts.push(`# ${w.label} (${w.rel})\n\n${got.text.trimEnd()}${note}`);
    files.push({ path: w.rel, label: w.label, chars: got.text.length, truncated: got.truncated });
  }
  return { system: parts.join('\n\n'), files, today, yesterday };
}
