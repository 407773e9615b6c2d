/**
 * The one Markdown directory walker: every `.md` file under a directory, for the built-in
 * index's memory sources (index/sources.ts) and QMD's collections (qmd/collections.ts), so
 * both see the same files. Symlinks are never followed (they could lead outside the
 * workspace) and dot-entries (.git, .obsidian) are skipped — the same set QMD's `**\/*.md`
 * glob takes. Asynchronous: directories are read off the main thread, and a big tree does
 * not stall the event loop (the Electron main thread, when the app runs it).
 */
import fs from 'node:fs';
import path from 'node:path';

export interface WalkOptions {
  /** Awaited before each directory entry: a caller's yield-and-cancel point (index/sources.ts). */
  onEntry?: () => Promise<void>;
}

/**
 * Every `.md` file under `dir`, as paths relative to `dir` with forward slashes, in directory
 * order (callers sort). A directory that cannot be read (gone, no permission) adds nothing.
 */
export async function walkMarkdown(dir: string, opts: WalkOptions = {}): Promise<string[]> {
  const out: string[] = [];
  const walk = async (d: string, prefix: string): Promise<void> => {
    const entries = await fs.promises.readdir(d, { withFileTypes: true }).catch(() => [] as fs.Dirent[]);
    for (const e of entries) {
      await opts.onEntry?.();
      // Dirent reports symlinks as such (no following): skipped.
      if (e.isSymbolicLink() || e.name.startsWith('.')) continue;
      const rel = prefix ? `${prefix}/${e.name}` : e.name;
      if (e.isDirectory()) await walk(path.join(d, e.name), rel);
      else if (e.isFile() && e.name.toLowerCase().endsWith('.md')) out.push(rel);
    }
  };
  await walk(dir, '');
  return out;
}
