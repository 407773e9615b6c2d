/**
 * The session stores' per-engine caches: parsed transcripts, stamped with the
 * store's stamp (size and mtime, or the database's stamp) so a changed file is re-read, and
 * the open read-only handles on OpenClaw databases. A context member: each engine has its
 * own, bounded by bytes rather than by count (two 100 MB transcripts and two tiny ones are
 * not the same memory), and emptied — handles closed — by engine.dispose().
 */
import { LRUCache } from 'lru-cache';
import type { ContextSlot, EngineContext } from '../../core/context';
import type { Transcript } from '../../transcript/types';
import type { ReadOnlyDb } from './sqlite-readonly';

/**
 * Budget of parsed transcripts, in bytes of their source (a parsed transcript takes a few
 * times its file size in memory). Holds the two ~100 MB sessions the old count cap of 2 held;
 * a transcript bigger than the whole budget is parsed on each read instead of evicting all.
 */
export const TRANSCRIPT_CACHE_BYTES = 256 * 1024 * 1024;

interface Held {
  stamp: string;
  transcript: Transcript;
}

/** What the stores of one engine share. */
export interface StoreCaches {
  /** The parsed transcript at `location` when it was read at `stamp`, else undefined. */
  transcript(location: string, stamp: string): Transcript | undefined;
  /** Keep `transcript`, read at `stamp` (`bytes`: its source size, counted against the budget). */
  keep(location: string, stamp: string, transcript: Transcript, bytes: number): void;
  /** Open read-only handles on OpenClaw databases, by file (closed on dispose). */
  readonly handles: Map<string, ReadOnlyDb>;
  /** Source bytes held now (for tests and Status). */
  heldBytes(): number;
}

export function createStoreCaches(maxBytes: number): StoreCaches & { dispose(): void } {
  const transcripts = new LRUCache<string, Held>({ maxSize: maxBytes });
  const handles = new Map<string, ReadOnlyDb>();
  return {
    transcript(location, stamp) {
      const hit = transcripts.get(location);
      return hit && hit.stamp === stamp ? hit.transcript : undefined;
    },
    keep(location, stamp, transcript, bytes) {
      // Bigger than the whole budget: lru-cache stores nothing (and drops the old entry).
      transcripts.set(location, { stamp, transcript }, { size: Math.max(1, bytes) });
    },
    handles,
    heldBytes: () => transcripts.calculatedSize,
    dispose() {
      transcripts.clear();
      for (const h of handles.values()) if (h.db.open) h.db.close();
      handles.clear();
    },
  };
}

const cachesSlot: ContextSlot<StoreCaches & { dispose(): void }> = {
  name: 'session store caches',
  create: () => createStoreCaches(TRANSCRIPT_CACHE_BYTES),
  dispose: (c) => c.dispose(),
};

/** The engine's session-store caches (made on first use, emptied by engine.dispose()). */
export function storeCaches(ctx: EngineContext): StoreCaches {
  return ctx.member(cachesSlot);
}
