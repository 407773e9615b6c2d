/**
 * The real OpenClaw CLI for tests, as installed by scripts/fetch-test-openclaw.mjs (run by
 * `.ci/run` and `npm test`'s pretest) into node_modules/.cache/cairn-openclaw. A test never
 * installs anything: this only finds the wrapper. Locally a missing install skips the
 * real-OpenClaw tests with the reason; under CI=true it fails the file, since CI must run them.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The private cache (override with CAIRN_OPENCLAW_CACHE); the same default as the fetch script. */
export const OPENCLAW_CACHE = process.env.CAIRN_OPENCLAW_CACHE ?? path.join(repoRoot, 'node_modules', '.cache', 'cairn-openclaw');

/** The wrapper script that runs openclaw under its Node 24, or a skip suffix for the title. */
export function realOpenClaw(): { command: string | null; skip: string } {
  const wrapper = path.join(OPENCLAW_CACHE, 'openclaw.sh');
  if (fs.existsSync(wrapper)) return { command: wrapper, skip: '' };
  const errFile = path.join(OPENCLAW_CACHE, '.last-error');
  const reason = (fs.existsSync(errFile) ? fs.readFileSync(errFile, 'utf8').trim() : '') || `openclaw is not installed in ${OPENCLAW_CACHE}: run node scripts/fetch-test-openclaw.mjs`;
  if (process.env.CI === 'true') throw new Error(`CI needs the real openclaw: ${reason} (.ci/run runs node scripts/fetch-test-openclaw.mjs first)`);
  return { command: null, skip: ` (skipped: ${reason})` };
}
