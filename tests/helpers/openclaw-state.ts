/**
 * The OpenClaw 2026.9.6-written state dir (tests/fixtures/openclaw-2026.9.6/state: its SQLite
 * session store, openclaw.json, memory files) copied into a temp dir per test, with a temp
 * Cairn data dir (CAIRN_DATA_DIR) so Cairn's own files for it land in the test's temp space;
 * `tree()` lists every path under the state dir with a hash of each file's bytes, to prove
 * Cairn changed and added nothing.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach } from 'vitest';
import { tmpDir } from './tmp';

export const OC2026_STATE_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'openclaw-2026.9.6', 'state');
export const OC2026_DB_REL = path.join('agents', 'main', 'agent', 'openclaw-agent.sqlite');

const savedDataDir = process.env.CAIRN_DATA_DIR;
afterEach(() => {
  if (savedDataDir === undefined) delete process.env.CAIRN_DATA_DIR;
  else process.env.CAIRN_DATA_DIR = savedDataDir;
});

/** Every path under `root` (dirs end in "/") mapped to the sha256 of its bytes ("" for dirs). */
export function treeOf(root: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (dir: string) => {
    for (const d of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, d.name);
      const rel = path.relative(root, p);
      if (d.isDirectory()) {
        out.set(`${rel}/`, '');
        walk(p);
      } else out.set(rel, crypto.createHash('sha256').update(fs.readFileSync(p)).digest('hex'));
    }
  };
  walk(root);
  return out;
}

/** A temp copy of the OpenClaw state dir; sets CAIRN_DATA_DIR to a fresh temp dir (restored after the test). */
export function copyOpenClawState(): { stateDir: string; dbFile: string; dataDir: string; tree: () => Map<string, string> } {
  const stateDir = path.join(tmpDir('cairn-ocstate-'), '.openclaw');
  fs.cpSync(OC2026_STATE_DIR, stateDir, { recursive: true });
  const dataDir = tmpDir('cairn-data-');
  process.env.CAIRN_DATA_DIR = dataDir;
  return { stateDir, dbFile: path.join(stateDir, OC2026_DB_REL), dataDir, tree: () => treeOf(stateDir) };
}
