/**
 * Searching one memory index: the pipeline takes the index (index/memory-index.ts gives a
 * snapshot of what to read) and runs the hybrid search on it (service.ts). The index does
 * not call the pipeline, so index/ stays a floor below search/. The KNN worker a big index
 * gets on its second search (knn-worker.ts) hangs on the index as an attachment, so it is
 * closed with the index.
 */
import type { SearchResponse } from '../../../shared/types/search';
import type { MemorySearchSettings } from '../config/schema';
import type { MemoryIndex } from '../index/memory-index';
import type { SearchRequest } from '../core/search-backend';
import { runSearch } from './service';
import { LazyKnnWorker } from './knn-worker';
import { sessionLinesFor } from './session-lines';

const KNN = Symbol('cairn.knnWorker');

function knnOf(index: MemoryIndex): LazyKnnWorker {
  return index.attachment(KNN, () => new LazyKnnWorker(index.opts.indexFile, index.opts.knnWorkerMinChunks));
}

/**
 * How to search an index other than its own settings say, without opening a second copy of
 * it (bench/lib/search-child.ts times the keyword and vector sides on the one index).
 */
export interface SearchView {
  /** Keyword side only, as an index without an embedder answers. */
  keywordOnly?: boolean;
  /** Settings in place of the index's (e.g. hybrid off: vector side only). */
  settings?: MemorySearchSettings;
}

/** Search the index as it is (callers sync first when dirty: builtin-backend.ts). */
export async function searchIndex(index: MemoryIndex, req: SearchRequest, view: SearchView = {}): Promise<SearchResponse> {
  const db = index.snapshot()?.db;
  // A rebuild may swap the file (closing this handle) while the search awaits the query
  // vector: then answer again from the new index rather than fail or return nothing.
  const swapped = () => db !== undefined && !db.open && index.snapshot()?.db !== db && index.built;
  const res = await searchOnce(index, req, view).catch((err: unknown) => {
    if (swapped()) return null;
    throw err;
  });
  return res === null || swapped() ? searchOnce(index, req, view) : res;
}

async function searchOnce(index: MemoryIndex, req: SearchRequest, view: SearchView): Promise<SearchResponse> {
  // process.hrtime, not performance.now(): the global `performance` loads node:perf_hooks on
  // first use (~1 ms of a one-shot `cairn search`, which needs nothing else of it).
  const started = process.hrtime.bigint();
  const e = index.embedder;
  const embedder = e ? { provider: e.provider, model: e.model } : null;
  const snap = index.snapshot();
  if (!snap) {
    return { results: [], mode: index.mode(), embedder, warnings: ['the index has not been built yet: run cairn index'], tookMs: 0 };
  }
  const warnings: string[] = [];
  if (snap.vecError) warnings.push(snap.vecError);
  const sessionLines = sessionLinesFor(index.opts.roots);
  const backend = view.keywordOnly
    ? { db: snap.db, vector: snap.vector, embedder: null, knn: undefined, sessionLines }
    : { db: snap.db, vector: snap.vector, embedder: snap.embedder, knn: snap.vector === 'vec0' ? knnOf(index).forSearch(snap.chunkCount) : undefined, sessionLines };
  const out = await runSearch(
    backend,
    view.settings ?? index.opts.settings,
    req,
    index.now(),
  );
  if (snap.olderSchema !== null && !snap.embedder && index.embedder) warnings.push(`the index was built by an older Cairn (schema ${snap.olderSchema}) and is being rebuilt: keyword results only until it is done`);
  else if (snap.otherEmbedder) warnings.push('the index was built with another embedder and is being rebuilt: keyword results only');
  return { ...out, embedder, warnings: [...warnings, ...out.warnings], tookMs: Math.round(Number(process.hrtime.bigint() - started) / 1e5) / 10 };
}

/**
 * Whether the index's searches now run their KNN on a worker thread (waits for a start under
 * way). For the tests and benchmarks that must know which path a search took.
 * @internal
 */
export function knnWorkerReady(index: MemoryIndex): Promise<boolean> {
  return knnOf(index).ready();
}

/**
 * Whether the KNN worker now answers from its in-memory copy of the vectors (waits for the
 * worker's start and for the copy's load under way). For tests and benchmarks.
 * @internal
 */
export function knnCopyLoaded(index: MemoryIndex): Promise<boolean> {
  return knnOf(index).loaded();
}
