/**
 * The two tools of the memory flush turn (SPEC §5): `read` (files inside the workspace) and
 * `write`, which may only append to today's `memory/YYYY-MM-DD.md` in the user's time zone.
 * Any other path is refused with a tool error that says which path is allowed. Appends never
 * overwrite, and lines already in the file are not written again.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { ToolSpec } from '../llm/types';
import { appendFileDurableSync } from '../util/atomic-write';
import { firstSymlinkOnTheWay, resolveInside } from '../util/path-inside';
import { NotRegularFileError, READ_MAX_CHARS, READ_MAX_FILE_BYTES, readRegularFileSync } from '../util/safe-read';

/** Today's date (YYYY-MM-DD) in `timeZone` (the system's when absent or invalid). */
export function todayIn(now: Date, timeZone?: string): string {
  const fmt = (tz?: string) => new Intl.DateTimeFormat('en-CA', { timeZone: tz, year: 'numeric', month: '2-digit', day: '2-digit' }).format(now);
  try {
    return fmt(timeZone || undefined);
  } catch {
    return fmt(undefined);
  }
}

export const FLUSH_TOOL_SPECS: ToolSpec[] = [
  {
    name: 'read',
    description: 'Read a text file inside the workspace (e.g. MEMORY.md or memory/YYYY-MM-DD.md).',
    parameters: {
      type: 'object',
      properties: { path: { type: 'string', description: 'Path relative to the workspace' }, from: { type: 'number' }, lines: { type: 'number' } },
      required: ['path'],
    },
  },
  {
    name: 'write',
    description: "Append lines to today's daily note memory/YYYY-MM-DD.md. Only that file may be written; existing lines are never changed.",
    parameters: {
      type: 'object',
      properties: { path: { type: 'string' }, content: { type: 'string' } },
      required: ['path', 'content'],
    },
  },
];

export interface ToolOutcome {
  isError: boolean;
  text: string;
}

/** `p` resolved inside `workspace` (symlinks followed, escapes refused: util/path-inside.ts), or undefined. */
function workspaceFile(workspace: string, p: string): string | undefined {
  const r = resolveInside(workspace, p);
  return r.ok ? r.abs : undefined;
}

/** Append `content` to `file`, skipping lines (trimmed, non-empty) the file already has. */
export function appendWithoutDuplicates(file: string, content: string): { appended: number; skipped: number } {
  let existing = '';
  try {
    // Never a blocking read (or, below, a blocking append) on a FIFO planted at this path.
    existing = readRegularFileSync(file, READ_MAX_FILE_BYTES).text;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    // a new file
  }
  const have = new Set(existing.split('\n').map((l) => l.trim()).filter(Boolean));
  const out: string[] = [];
  let skipped = 0;
  for (const line of content.replace(/\r\n/g, '\n').split('\n')) {
    const t = line.trim();
    if (!t) {
      if (out.length && out[out.length - 1] !== '') out.push('');
      continue;
    }
    if (have.has(t)) {
      skipped++;
      continue;
    }
    have.add(t);
    out.push(line.replace(/\s+$/, ''));
  }
  while (out.length && out[out.length - 1] === '') out.pop();
  const appended = out.filter((l) => l !== '').length;
  if (appended === 0) return { appended, skipped };
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const sep = existing === '' || existing.endsWith('\n') ? '' : '\n';
  appendFileDurableSync(file, `${sep}${out.join('\n')}\n`);
  return { appended, skipped };
}

/** The flush tools bound to a workspace and a day. */
export function flushToolRunner(workspace: string, date: string): { allowedPath: string; run(name: string, args: Record<string, unknown>): ToolOutcome } {
  const allowedRel = `memory/${date}.md`;
  const allowed = path.join(workspace, 'memory', `${date}.md`);
  return {
    allowedPath: allowedRel,
    run(name, args) {
      const p = typeof args.path === 'string' ? args.path.trim() : '';
      if (name === 'read') {
        const abs = p ? workspaceFile(workspace, p) : undefined;
        if (!abs) return { isError: true, text: `read refused: ${JSON.stringify(p)} is not a file inside the workspace` };
        let text: string;
        try {
          text = readRegularFileSync(abs, READ_MAX_FILE_BYTES).text;
        } catch (err) {
          const code = (err as NodeJS.ErrnoException).code;
          return { isError: true, text: code === 'ENOENT' ? `${p} does not exist yet` : `cannot read ${p}: ${(err as Error).message}` };
        }
        const from = Math.max(1, Number(args.from) || 1);
        const count = Number(args.lines) > 0 ? Number(args.lines) : Infinity;
        const lines = text.split('\n').slice(from - 1, from - 1 + count).join('\n');
        return { isError: false, text: lines.length > READ_MAX_CHARS ? `${lines.slice(0, READ_MAX_CHARS)}\n[... truncated]` : lines };
      }
      if (name === 'write') {
        const abs = p ? path.resolve(workspace, p) : '';
        if (abs !== allowed) {
          return { isError: true, text: `write refused: only ${allowedRel} (today's daily note) may be written during the memory flush, not ${JSON.stringify(p)}` };
        }
        // No symlink at all on the way, dangling ones included: an append follows a link to create its target.
        if (workspaceFile(workspace, abs) === undefined || firstSymlinkOnTheWay(workspace, abs) !== undefined) {
          return { isError: true, text: `write refused: ${allowedRel} is a symbolic link or leaves the workspace` };
        }
        if (typeof args.content !== 'string') return { isError: true, text: 'write needs a "content" string' };
        let r;
        try {
          r = appendWithoutDuplicates(abs, args.content);
        } catch (err) {
          if (err instanceof NotRegularFileError) return { isError: true, text: `write refused: ${allowedRel} is not a regular file (${err.kind})` };
          throw err;
        }
        return { isError: false, text: `appended ${r.appended} line(s) to ${allowedRel}${r.skipped ? `; ${r.skipped} line(s) already there were skipped` : ''}` };
      }
      return { isError: true, text: `unknown tool ${JSON.stringify(name)}: the memory flush offers only read and write` };
    },
  };
}
