/**
 * OpenClaw 2026.9.6-written sessions in the legacy JSONL layout
 * (tests/fixtures/openclaw-2026.9.6/legacy-export: s1-alpha, s2-beta copied from the shared
 * fixture's export, s5-anth exported from its SQLite store by scripts/openclaw-export-legacy.mjs),
 * copied into a temp state dir for each test; the copy's bytes can be compared afterwards.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { tmpDir } from './tmp';

export const OC2026_LEGACY_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'openclaw-2026.9.6', 'legacy-export');

/** Every file under `dir` with its bytes. */
function readAll(dir: string, out = new Map<string, Buffer>()): Map<string, Buffer> {
  for (const d of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, d.name);
    if (d.isDirectory()) readAll(p, out);
    else out.set(p, fs.readFileSync(p));
  }
  return out;
}

/** A temp copy of the legacy export as a state dir; `unchanged()` is true while no file was changed, added or removed. */
export function copyOpenClaw2026(): { stateDir: string; sessionsDir: string; unchanged: () => boolean } {
  const stateDir = path.join(tmpDir('cairn-oc2026-'), 'state');
  fs.cpSync(OC2026_LEGACY_DIR, stateDir, { recursive: true });
  fs.rmSync(path.join(stateDir, 'README.md'), { force: true });
  const snapshot = readAll(stateDir);
  const unchanged = () => {
    const now = readAll(stateDir);
    if (now.size !== snapshot.size) return false;
    for (const [p, b] of snapshot) if (!now.get(p)?.equals(b)) return false;
    return true;
  };
  return { stateDir, sessionsDir: path.join(stateDir, 'agents', 'main', 'sessions'), unchanged };
}

/** Run `cairn <args>` in this process (the real CLI over the real engine), capturing its output. */
export async function cairnInProcess(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const [{ runCli }, { createRuntime }] = await Promise.all([import('../../electron/cli/main'), import('../../electron/cli/runtime')]);
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, createRuntime({ stdout: (s) => (stdout += s), stderr: (s) => (stderr += s), isTTY: false }));
  return { code, stdout, stderr };
}
