/**
 * Is a process still there? Shared by the writers that decide whether a file named after a
 * pid (Cairn's stale temps, OpenClaw's session write lock) still has its owner, and by the
 * serve discovery record (its writer and `cairn search`'s thin client, bin/thin-client.mjs).
 */
import fs from 'node:fs';

/** True when a process with this pid exists (EPERM: it exists but belongs to another user). */
export function processExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Linux /proc facts about a pid: whether it is a zombie (dead, not yet reaped: kill(pid, 0)
 * still succeeds) and its start time in clock ticks (field 22 of /proc/<pid>/stat, which
 * tells a recycled pid apart). null elsewhere or when unreadable.
 */
export function procStat(pid: number): { zombie: boolean; starttime: number | null } | null {
  if (process.platform !== 'linux') return null;
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // comm (field 2) is in parentheses and may hold spaces: split after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const starttime = Number.parseInt(fields[19] ?? '', 10);
    return { zombie: fields[0] === 'Z', starttime: Number.isFinite(starttime) ? starttime : null };
  } catch {
    return null;
  }
}

/**
 * The start time of process `pid` as the OS counts it, as text (what the serve discovery
 * record stores, electron/server/engine-record.ts, and the thin client compares); null off
 * Linux or when the process is gone. The one reader of /proc/<pid>/stat is {@link procStat}.
 */
export function processStart(pid: number): string | null {
  const start = procStat(pid)?.starttime;
  return start === null || start === undefined ? null : String(start);
}
