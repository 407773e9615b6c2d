/** Build a workspace + MemoryIndex in a temp dir for index and search tests. */
import path from 'node:path';
import { defaultConfig, type MemorySearchSettings } from '../../electron/engine/config/schema';
import { MemoryIndex, type MemoryIndexOptions } from '../../electron/engine/index/memory-index';
import type { Embedder } from '../../electron/engine/embed/types';
import type { SearchRequest } from '../../electron/engine/core/search-backend';
import { searchIndex } from '../../electron/engine/search/index-search';
import type { SearchResponse } from '../../shared/types/search';
import { tmpDir, writeTree } from './tmp';

export interface Fixture {
  root: string;
  workspace: string;
  sessionsDir: string;
  indexFile: string;
  settings: MemorySearchSettings;
  warnings: string[];
  open(opts?: Partial<MemoryIndexOptions> & { embedder?: Embedder | null }): SearchableIndex;
}

/** An index with the search pipeline on it, so a test reads `idx.search(req)`. */
type SearchableIndex = MemoryIndex & { search(req: SearchRequest): Promise<SearchResponse> };

/** `idx` plus `search` = the pipeline's `searchIndex(idx, req)` (the index itself does not search). */
function searchable(idx: MemoryIndex): SearchableIndex {
  return Object.assign(idx, { search: (req: SearchRequest) => searchIndex(idx, req) });
}

/** Settings with defaults, deep-patched by `patch`. */
export function settingsWith(patch: (s: MemorySearchSettings) => void = () => {}): MemorySearchSettings {
  const s = defaultConfig().memory.search;
  patch(s);
  return s;
}

/** The write side a whole test run asks for (the tests pass it in; the engine reads no environment for it). */
function suiteWriteWorker(): { writeWorker?: 'on' | 'off' } {
  const side = process.env.CAIRN_WRITE_WORKER;
  return side === 'on' || side === 'off' ? { writeWorker: side } : {};
}

export function memoryFixture(files: Record<string, string>, settings = settingsWith()): Fixture {
  const root = tmpDir('cairn-mem-');
  const workspace = path.join(root, 'workspace');
  const sessionsDir = path.join(root, 'agents', 'main', 'sessions');
  writeTree(root, files);
  const warnings: string[] = [];
  const fx: Fixture = {
    root,
    workspace,
    sessionsDir,
    indexFile: path.join(root, 'cairn', 'index', 'main.sqlite'),
    settings,
    warnings,
    open(opts = {}) {
      const s = opts.settings ?? fx.settings;
      return searchable(MemoryIndex.open({
        agentId: 'main',
        indexFile: fx.indexFile,
        roots: { workspace, sessionsDir, extraPaths: s.extraPaths, sources: s.sources },
        settings: s,
        embedder: opts.embedder === undefined ? null : opts.embedder,
        warn: (m) => warnings.push(m),
        now: () => new Date('2024-06-01T12:00:00Z'),
        // `CAIRN_WRITE_WORKER=on|off npx vitest run tests/unit/index-*.test.ts` runs a suite with every write on one side.
        ...suiteWriteWorker(),
        ...opts,
      }));
    },
  };
  return fx;
}
