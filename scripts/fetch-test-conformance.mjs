#!/usr/bin/env node
/**
 * The official MCP conformance suite (`@modelcontextprotocol/conformance`) for the
 * mcp-conformance test, installed BEFORE the tests run (by `.ci/run` and `npm test`'s
 * pretest), never by a test. Two versions, each in its own private prefix under
 * `node_modules/.cache/cairn-mcp-conformance/` (CAIRN_CONFORMANCE_CACHE overrides), with
 * the Node 22 the runner wants — the npm registry's `node-<os>-<arch>@22`, the one the QMD
 * tests use (fetch-test-qmd.mjs) — never system-wide, never into the project's node_modules:
 *
 *   stable  0.1.16          the 2025-11-25 line
 *   next    0.2.0-alpha.12  the 2026-07-28 line
 *
 * Each install goes into a temp directory renamed into place, so concurrent runs never see
 * half an install; later runs reuse it (offline).
 *
 *   node scripts/fetch-test-conformance.mjs           install if needed, print what is there
 *   node scripts/fetch-test-conformance.mjs --json    {"node", "runners": {stable, next}} or {"skip": reason}
 *   node scripts/fetch-test-conformance.mjs --soft    exit 0 when it cannot install (npm test's pretest)
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { QMD_CACHE } from './fetch-test-qmd.mjs';
import { ensureNode, errText, npmCli, publish, run } from './lib/private-npm.mjs';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The private cache (override with CAIRN_CONFORMANCE_CACHE). */
export const CONFORMANCE_CACHE = process.env.CAIRN_CONFORMANCE_CACHE ?? path.join(repoRoot, 'node_modules', '.cache', 'cairn-mcp-conformance');

/** The runner versions the test runs, by line. */
export const CONFORMANCE_VERSIONS = { stable: '0.1.16', next: '0.2.0-alpha.12' };

function ensureRunner(npm, node, line, version) {
  const prefix = path.join(CONFORMANCE_CACHE, `${line}-${version}`);
  const pkgDir = path.join(prefix, 'node_modules', '@modelcontextprotocol', 'conformance');
  const manifest = path.join(pkgDir, 'package.json');
  if (fs.existsSync(manifest)) return runnerEntry(pkgDir);
  const tmp = fs.mkdtempSync(path.join(CONFORMANCE_CACHE, `.${line}-`));
  try {
    // Its own package.json: npm must never walk up to the project's.
    fs.writeFileSync(path.join(tmp, 'package.json'), '{ "name": "cairn-mcp-conformance-cache", "private": true }\n');
    const env = { ...process.env, PATH: `${path.dirname(node)}${path.delimiter}${process.env.PATH ?? ''}` };
    run(node, [npm, 'install', '--prefix', tmp, '--no-audit', '--no-fund', '--loglevel', 'error', `@modelcontextprotocol/conformance@${version}`], { cwd: tmp, env });
    publish(tmp, prefix);
  } catch (err) {
    fs.rmSync(tmp, { recursive: true, force: true });
    throw err;
  }
  return runnerEntry(pkgDir);
}

/** The runner's CLI file, from its package.json `bin`. */
function runnerEntry(pkgDir) {
  const pkg = JSON.parse(fs.readFileSync(path.join(pkgDir, 'package.json'), 'utf8'));
  const bin = typeof pkg.bin === 'string' ? pkg.bin : Object.values(pkg.bin ?? {})[0];
  if (!bin) throw new Error(`${pkgDir}: the package names no bin`);
  return path.join(pkgDir, bin);
}

/** Install (once) and return the Node and the runners, or why they cannot be had here. */
export function ensureConformance() {
  if (process.platform === 'win32') return { skip: 'the conformance set-up supports Linux and macOS only' };
  try {
    fs.mkdirSync(CONFORMANCE_CACHE, { recursive: true });
    const npm = npmCli();
    if (!npm) return { skip: 'npm (npm-cli.js) not found: cannot fetch Node 22 and @modelcontextprotocol/conformance' };
    // The Node 22 that the QMD tests unpack, shared: one copy per checkout.
    fs.mkdirSync(QMD_CACHE, { recursive: true });
    const node = ensureNode(npm, QMD_CACHE, 22);
    const runners = {};
    for (const [line, version] of Object.entries(CONFORMANCE_VERSIONS)) runners[line] = { version, entry: ensureRunner(npm, node, line, version) };
    return { node, runners };
  } catch (err) {
    return { skip: `Node 22 or @modelcontextprotocol/conformance could not be installed into ${CONFORMANCE_CACHE}: ${errText(err)}` };
  }
}

const isMain = process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) {
  const res = ensureConformance();
  const errFile = path.join(CONFORMANCE_CACHE, '.last-error');
  if ('skip' in res) {
    try {
      fs.mkdirSync(CONFORMANCE_CACHE, { recursive: true });
      fs.writeFileSync(errFile, `${res.skip.split('\n')[0]}\n`);
    } catch {}
    if (process.argv.includes('--json')) process.stdout.write(`${JSON.stringify({ skip: res.skip })}\n`);
    else process.stderr.write(`fetch-test-conformance: ${res.skip.split('\n')[0]}\n`);
    process.exitCode = process.argv.includes('--soft') ? 0 : 1;
  } else {
    fs.rmSync(errFile, { force: true });
    if (process.argv.includes('--json')) process.stdout.write(`${JSON.stringify(res)}\n`);
    else for (const [line, r] of Object.entries(res.runners)) process.stdout.write(`fetch-test-conformance: ${line} ${r.version} at ${r.entry} (node ${res.node})\n`);
  }
}
