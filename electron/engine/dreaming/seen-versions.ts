/**
 * The versions of MEMORY.md Cairn has seen: each distinct text Cairn read when the history was
 * asked for is kept in Cairn's own dir for this state dir (`<cairn dir>/memory-history/<agent>/`,
 * one `<sha256>.json` per version), never in OpenClaw's. Dreaming keeps only its last 8
 * pre-rewrite copies and none before an append; these fill the gaps from the first time Cairn
 * looked. Bounded: at most MAX_SEEN versions (the oldest go first), texts over MAX_TEXT skipped.
 */
import fs from 'node:fs';
import path from 'node:path';
import { writeFileAtomicSync } from '../util/atomic-write';
import { sha256 } from './plugin-state';

export const MAX_SEEN = 50;
export const MAX_TEXT = 1024 * 1024;

/** One version Cairn saw. */
export interface SeenVersion {
  firstSeenAt: string;
  contentHash: string;
  content: string;
}

/** Every version kept in `dir`, oldest first (a file that does not parse is skipped). */
export function readSeenVersions(dir: string): SeenVersion[] {
  let names: string[];
  try {
    names = fs.readdirSync(dir).filter((n) => /^[0-9a-f]{64}\.json$/u.test(n));
  } catch {
    return [];
  }
  const out: SeenVersion[] = [];
  for (const n of names) {
    try {
      const v = JSON.parse(fs.readFileSync(path.join(dir, n), 'utf8')) as Partial<SeenVersion>;
      if (typeof v.content === 'string' && typeof v.firstSeenAt === 'string') out.push({ firstSeenAt: v.firstSeenAt, content: v.content, contentHash: sha256(v.content) });
    } catch {
      // a torn or foreign file: not a version
    }
  }
  return out.sort((a, b) => a.firstSeenAt.localeCompare(b.firstSeenAt));
}

/**
 * Remember `content` as seen at `now` unless already kept; returns the kept versions, oldest
 * first. A failure to write (a read-only data dir) is not an error: the history is shown
 * without it.
 */
export function rememberVersion(dir: string, content: string, now: Date): SeenVersion[] {
  const kept = readSeenVersions(dir);
  const hash = sha256(content);
  if (Buffer.byteLength(content) > MAX_TEXT || kept.some((v) => v.contentHash === hash)) return kept;
  const v: SeenVersion = { firstSeenAt: now.toISOString(), contentHash: hash, content };
  try {
    fs.mkdirSync(dir, { recursive: true });
    writeFileAtomicSync(path.join(dir, `${hash}.json`), JSON.stringify(v));
    kept.push(v);
    while (kept.length > MAX_SEEN) {
      const old = kept.shift();
      if (old) fs.rmSync(path.join(dir, `${old.contentHash}.json`), { force: true });
    }
  } catch {
    // Cairn's data dir is not writable: nothing is remembered this time
  }
  return kept;
}
