/**
 * The real QMD CLI for tests (issue 5), as installed by scripts/fetch-test-qmd.mjs (run by
 * `.ci/run` and `npm test`'s pretest) into node_modules/.cache/cairn-qmd. A test never
 * installs anything: this only finds the wrapper and asks its version. Locally a missing qmd
 * skips the real-qmd tests with the reason; under CI=true it fails the file, since CI must
 * run them.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The private cache (override with CAIRN_QMD_CACHE); the same default as the fetch script. */
export const QMD_CACHE = process.env.CAIRN_QMD_CACHE ?? path.join(repoRoot, 'node_modules', '.cache', 'cairn-qmd');

export interface RealQmd {
  /** A wrapper script: use it as `memory.qmd.command`. */
  command: string;
  /** `qmd --version` output. */
  version: string;
}

export type RealQmdOrSkip = RealQmd | { skip: string };

/** The installed real qmd, or why it is not there. */
export function ensureRealQmd(): RealQmdOrSkip {
  const wrapper = path.join(QMD_CACHE, 'qmd.sh');
  let result: RealQmdOrSkip;
  if (!fs.existsSync(wrapper)) {
    const errFile = path.join(QMD_CACHE, '.last-error');
    const last = fs.existsSync(errFile) ? fs.readFileSync(errFile, 'utf8').trim() : '';
    result = { skip: last || `qmd is not installed in ${QMD_CACHE}: run node scripts/fetch-test-qmd.mjs` };
  } else {
    try {
      result = { command: wrapper, version: execFileSync(wrapper, ['--version'], { cwd: QMD_CACHE, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim() };
    } catch (err) {
      result = { skip: `the qmd in ${QMD_CACHE} does not start (${(err as Error).message.split('\n')[0]}): run node scripts/fetch-test-qmd.mjs again` };
    }
  }
  if ('skip' in result && process.env.CI === 'true') throw new Error(`CI needs the real qmd: ${result.skip} (.ci/run runs node scripts/fetch-test-qmd.mjs first)`);
  return result;
}
