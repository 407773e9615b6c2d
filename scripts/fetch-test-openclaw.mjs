#!/usr/bin/env node
/**
 * The real OpenClaw (`openclaw@2026.9.6`) for the openclaw-real test, installed BEFORE the
 * tests run (by `.ci/run` and `npm test`'s pretest), never by a test. OpenClaw needs Node 24
 * and the project runs on Node 20, so, once per machine, this unpacks a Node 24 from the npm
 * registry's `node-<platform>-<arch>@24` package and installs openclaw with that Node into a
 * private prefix under `node_modules/.cache/cairn-openclaw/` (CAIRN_OPENCLAW_CACHE overrides)
 * — never system-wide, never into the project's own node_modules. Later runs reuse it.
 * Install scripts are skipped: `openclaw agent --local` with a custom provider needs none.
 * Each step installs into a temp directory and renames it into place (scripts/lib/private-npm.mjs).
 *
 *   node scripts/fetch-test-openclaw.mjs           install if needed, print the wrapper and version
 *   node scripts/fetch-test-openclaw.mjs --json    {"command", "version"} or {"skip": reason}
 *   node scripts/fetch-test-openclaw.mjs --soft    as the first, but exit 0 when it cannot install
 *
 * Exit 0 when openclaw is ready; 1 with a one-line reason (also written to <cache>/.last-error)
 * when it cannot be installed here (0 with --soft).
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureNode, ensureWrapped, installPrivate, npmCli, reportFetch } from './lib/private-npm.mjs';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The version the tests pin: the one whose config keys docs/openclaw.md describes. */
export const OPENCLAW_VERSION = '2026.9.6';

/** The private cache (override with CAIRN_OPENCLAW_CACHE). */
export const OPENCLAW_CACHE = process.env.CAIRN_OPENCLAW_CACHE ?? path.join(repoRoot, 'node_modules', '.cache', 'cairn-openclaw');

/** Install (once) and return the real openclaw wrapper, or why it cannot be had here. */
export function ensureRealOpenClaw() {
  const prefix = path.join(OPENCLAW_CACHE, `openclaw-${OPENCLAW_VERSION}`);
  return ensureWrapped({
    cache: OPENCLAW_CACHE,
    wrapper: path.join(OPENCLAW_CACHE, 'openclaw.sh'),
    label: `openclaw ${OPENCLAW_VERSION}`,
    what: `Node 24 or openclaw@${OPENCLAW_VERSION}`,
    brokenPaths: [prefix, path.join(OPENCLAW_CACHE, 'node24')],
    install: () => {
      const npm = npmCli();
      if (!npm) return { skip: 'npm (npm-cli.js) not found: cannot fetch Node 24 and openclaw' };
      const node = ensureNode(npm, OPENCLAW_CACHE, 24);
      const entry = path.join(prefix, 'node_modules', 'openclaw', 'openclaw.mjs');
      if (!fs.existsSync(entry)) installPrivate(npm, node, OPENCLAW_CACHE, prefix, [`openclaw@${OPENCLAW_VERSION}`], ['--ignore-scripts']);
      return { node, entry };
    },
  });
}

const isMain = process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) reportFetch('fetch-test-openclaw', OPENCLAW_CACHE, ensureRealOpenClaw());
