/**
 * The state dir the real OpenClaw 2026.9.6 wrote over four simulated days with dreaming on
 * (tests/fixtures/openclaw-2026.9.6-dreaming/state, made by
 * scripts/make-openclaw-dreaming-fixture.mjs; its README says what it holds), copied into a
 * temp dir per test with a temp Cairn data dir (CAIRN_DATA_DIR, restored after the test by
 * openclaw-state.ts); `tree()` hashes every file so a test can prove nothing there changed.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { treeOf } from './openclaw-state';
import { tmpDir } from './tmp';

export const OC_DREAMING_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'openclaw-2026.9.6-dreaming');
export const OC_DREAMING_STATE_DIR = path.join(OC_DREAMING_DIR, 'state');

/** A temp copy of the dreaming fixture's state dir (named `.openclaw`, as OpenClaw's is). */
export function copyDreamingState(): { stateDir: string; workspace: string; dataDir: string; tree: () => Map<string, string> } {
  const stateDir = path.join(tmpDir('cairn-ocdream-'), '.openclaw');
  fs.cpSync(OC_DREAMING_STATE_DIR, stateDir, { recursive: true });
  const dataDir = tmpDir('cairn-data-');
  process.env.CAIRN_DATA_DIR = dataDir;
  return { stateDir, workspace: path.join(stateDir, 'workspace'), dataDir, tree: () => treeOf(stateDir) };
}
