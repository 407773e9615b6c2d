/** The hand-written OpenClaw fixture state dir, copied into a temp dir for each test. */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { tmpDir } from './tmp';

export const FIXTURE_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'openclaw');
export const FIXTURE_SESSION_ID = '5f0c2a1e-7b3d-4c8e-9a61-2d4f8b0e1c37';
export const FIXTURE_TRANSCRIPT = path.join(FIXTURE_DIR, 'agents', 'main', 'sessions', `${FIXTURE_SESSION_ID}.jsonl`);

/** A temp copy of the fixture state dir; returns its path and the transcript's path in it. */
export function copyFixture(opts: { writable?: boolean } = {}): { stateDir: string; transcript: string; sessionsDir: string } {
  const stateDir = path.join(tmpDir('cairn-fixture-'), 'state');
  fs.cpSync(FIXTURE_DIR, stateDir, { recursive: true });
  fs.rmSync(path.join(stateDir, 'README.md'), { force: true });
  if (opts.writable) {
    fs.mkdirSync(path.join(stateDir, 'cairn'), { recursive: true });
    fs.writeFileSync(
      path.join(stateDir, 'cairn', 'state.json'),
      JSON.stringify({ createdBy: 'external', writable: true, createdAt: '2025-03-02T00:00:00.000Z' }),
    );
  }
  const sessionsDir = path.join(stateDir, 'agents', 'main', 'sessions');
  return { stateDir, sessionsDir, transcript: path.join(sessionsDir, `${FIXTURE_SESSION_ID}.jsonl`) };
}
