/**
 * OpenClaw 2026.9.6-written sessions in the legacy JSONL layout
 * (tests/fixtures/openclaw-2026.9.6/legacy-export: s1-alpha, s2-beta copied from the shared
 * fixture's export, s5-anth exported from its SQLite store by scripts/openclaw-export-legacy.mjs),
 * copied into a temp state dir for each test; the copy's bytes can be compared afterwards.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import type { CairnApi } from '../../shared/client';
import type { SearchResult } from '../../shared/types/search';
import { treeOf } from './openclaw-state';
import { tmpDir } from './tmp';

export const OC2026_LEGACY_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'openclaw-2026.9.6', 'legacy-export');

/**
 * A temp copy of the legacy export as a state dir, with a temp Cairn data dir (openclaw-state.ts
 * sets CAIRN_DATA_DIR, restored after the test) so Cairn's own files for this foreign dir
 * stay in the test's temp space; `unchanged()` is true while no file was changed, added or removed.
 */
export function copyOpenClaw2026(): { stateDir: string; sessionsDir: string; unchanged: () => boolean } {
  const stateDir = path.join(tmpDir('cairn-oc2026-'), 'state');
  fs.cpSync(OC2026_LEGACY_DIR, stateDir, { recursive: true });
  fs.rmSync(path.join(stateDir, 'README.md'), { force: true });
  process.env.CAIRN_DATA_DIR = tmpDir('cairn-data-');
  const before = JSON.stringify([...treeOf(stateDir)]);
  return { stateDir, sessionsDir: path.join(stateDir, 'agents', 'main', 'sessions'), unchanged: () => JSON.stringify([...treeOf(stateDir)]) === before };
}

/** Run `cairn <args>` in this process (the real CLI over the real engine), capturing its output. */
export async function cairnInProcess(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const [{ runCli }, { createRuntime }] = await Promise.all([import('../../electron/cli/main'), import('../../electron/cli/runtime')]);
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, createRuntime({ stdout: (s) => (stdout += s), stderr: (s) => (stderr += s), isTTY: false }));
  return { code, stdout, stderr };
}

/**
 * Index the engine's sources and search the sessions source for `phrase`: the hit whose
 * snippet holds it (the test fails, listing the citations, when none does).
 */
export async function sessionHitFor(api: CairnApi, phrase: string): Promise<SearchResult> {
  await api['index.sync']({});
  const res = await api['search.query']({ query: phrase, source: 'sessions' });
  const hit = res.results.find((r) => r.snippet.includes(phrase));
  expect(hit, JSON.stringify(res.results.map((r) => r.citation))).toBeDefined();
  return hit!;
}
