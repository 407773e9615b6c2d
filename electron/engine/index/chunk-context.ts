/**
 * A chunk's context (SPEC §6): the daily note's date from its file name and the nearest
 * Markdown heading above the chunk. Both are indexed (keyword and vector) with the chunk,
 * so a chunk cut from the middle of a file is still found by when and under what it was
 * written ("what did I decide in May", "deploy notes").
 */

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

/** `YYYY-MM-DD` from a file name that starts with a valid date (`2024-05-08.md`, `2024-05-08-standup.md`). */
export function dateFromPath(relPath: string): string | null {
  const base = relPath.split('/').pop() ?? '';
  const m = /^(\d{4})-(\d{2})-(\d{2})(?![0-9])/.exec(base);
  if (!m) return null;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  if (d.getUTCFullYear() !== Number(m[1]) || d.getUTCMonth() !== Number(m[2]) - 1 || d.getUTCDate() !== Number(m[3])) return null;
  return `${m[1]}-${m[2]}-${m[3]}`;
}

/** "2024-05-08 (Wednesday, 8 May 2024)": the date in words too, so "May 2024" finds it. */
export function describeDate(day: string): string {
  const [y, mo, d] = day.split('-').map(Number) as [number, number, number];
  const date = new Date(Date.UTC(y, mo - 1, d));
  return `${day} (${WEEKDAYS[date.getUTCDay()]}, ${d} ${MONTHS[mo - 1]} ${y})`;
}

const HEADING = /^ {0,3}(#{1,6})\s+(.+?)\s*#*\s*$/;

/**
 * A line longer than this many chars is judged a heading or a fence by its first
 * {@link LINE_HEAD_CHARS} only: a streamed file (prepare-stream.ts) never holds such a line
 * whole, and the whole-text path applies the same rule so both give the same chunks. (It
 * also spares the heading pattern a 200 MB line.)
 */
export const LONG_LINE_CHARS = 1 << 20;
const LINE_HEAD_CHARS = 4096;

/**
 * `s` with characters of its own: V8 cuts a slice without copying, so a regex match keeps its
 * whole subject alive; joined to a space it is copied into a new string (when V8 flattens it
 * to slice), of which the slice then keeps only that.
 */
function copyOf(s: string): string {
  return ` ${s}`.slice(1);
}

/**
 * The nearest heading at or above each line, fed one line at a time (a streamed file):
 * fenced code blocks are skipped so a `# comment` in a shell snippet is not taken for a heading.
 */
export class HeadingTracker {
  private current: string | null = null;
  private fence: string | null = null;

  /** The heading in force at `line` (the next line of the file). */
  next(whole: string): string | null {
    const line = whole.length > LONG_LINE_CHARS ? whole.slice(0, LINE_HEAD_CHARS) : whole;
    const f = /^ {0,3}(`{3,}|~{3,})/.exec(line);
    if (f) {
      if (this.fence === null) this.fence = f[1]!.slice(0, 3);
      else if (f[1]!.startsWith(this.fence)) this.fence = null;
    } else if (this.fence === null) {
      const h = HEADING.exec(line);
      // A copy, not a slice of the line: a slice keeps the whole piece of the file the line
      // was cut from (prepare-stream.ts) alive for as long as a chunk row holds the heading.
      if (h) this.current = copyOf(h[2]!);
    }
    return this.current;
  }
}

/** For each line (1-based index), the nearest heading at or above it (HeadingTracker over a list). */
export function headingsByLine(lines: readonly string[]): (string | null)[] {
  const tracker = new HeadingTracker();
  const out: (string | null)[] = [null];
  for (const line of lines) out.push(tracker.next(line));
  return out;
}

/** The one context line indexed with a chunk, e.g. `Date: 2024-05-08 (…) · Section: Deploy`. */
export function contextLine(day: string | null, heading: string | null): string {
  const parts: string[] = [];
  if (day) parts.push(`Date: ${describeDate(day)}`);
  if (heading) parts.push(`Section: ${heading}`);
  return parts.join(' · ');
}
