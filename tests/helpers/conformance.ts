/**
 * The MCP conformance runners and their Node 22, as installed by
 * scripts/fetch-test-conformance.mjs (run by `.ci/run` and `npm test`'s pretest; never by a
 * test). Locally a missing install skips with the reason; under CI=true it throws at import.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export interface Conformance {
  node: string | null;
  runners: Record<'stable' | 'next', { version: string; entry: string }> | null;
  /** '' when installed; else " (skipped: <reason>)" for the describe title. */
  skip: string;
}

let cached: Conformance | undefined;

/** What fetch-test-conformance.mjs installed (it answers from its cache without a network). */
export function conformance(): Conformance {
  if (cached) return cached;
  const r = spawnSync(process.execPath, [path.join(root, 'scripts/fetch-test-conformance.mjs'), '--json'], { encoding: 'utf8', timeout: 600_000 });
  let parsed: { node?: string; runners?: Conformance['runners']; skip?: string } = {};
  try {
    parsed = JSON.parse(r.stdout) as typeof parsed;
  } catch {
    parsed = { skip: r.stderr.trim().split('\n')[0] || `fetch-test-conformance exited ${r.status}` };
  }
  if (parsed.node && parsed.runners) cached = { node: parsed.node, runners: parsed.runners, skip: '' };
  else {
    const reason = parsed.skip ?? 'not installed: run node scripts/fetch-test-conformance.mjs';
    if (process.env.CI === 'true') throw new Error(`CI needs the MCP conformance runners: ${reason} (.ci/run runs node scripts/fetch-test-conformance.mjs first)`);
    cached = { node: null, runners: null, skip: ` (skipped: ${reason.split('\n')[0]})` };
  }
  return cached;
}
