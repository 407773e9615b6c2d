#!/usr/bin/env node
/**
 * The real QMD CLI for the qmd-real tests, installed BEFORE the tests run (by
 * `.ci/run` and `npm test`'s pretest), never by a test. QMD needs Node ≥ 22 and the project
 * runs on Node 20, so, once per machine, this unpacks a Node 22 from the npm registry's
 * `node-<platform>-<arch>@22` package and installs `@tobilu/qmd` with that Node into a
 * private prefix under `node_modules/.cache/cairn-qmd/` (CAIRN_QMD_CACHE overrides) — never
 * system-wide, never into the project's own node_modules. Later runs reuse it (offline).
 * Install scripts are skipped: BM25 `search` needs none. First install: about 25 s and
 * 380 MB on a warm npm cache. Each step installs into a temp directory and renames it into
 * place, so concurrent runs never see half an install.
 *
 *   node scripts/fetch-test-qmd.mjs              install if needed, print the wrapper and version
 *   node scripts/fetch-test-qmd.mjs --json       {"command", "version"} or {"skip": reason}
 *   node scripts/fetch-test-qmd.mjs --soft       as the first, but exit 0 when it cannot install
 *                                                (npm test's pretest: the tests then skip locally)
 *
 * Exit 0 when qmd is ready; 1 with a one-line reason (also written to <cache>/.last-error)
 * when it cannot be installed here (0 with --soft).
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureNode, ensureWrapped, npmCli, publish, reportFetch, run } from './lib/private-npm.mjs';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The private cache (override with CAIRN_QMD_CACHE). */
export const QMD_CACHE = process.env.CAIRN_QMD_CACHE ?? path.join(repoRoot, 'node_modules', '.cache', 'cairn-qmd');

/** `@tobilu/qmd` installed with Node 22 into the cache's own prefix. */
function ensureQmdPackage(npm, node) {
  const prefix = path.join(QMD_CACHE, 'qmd');
  const entry = path.join(prefix, 'node_modules', '@tobilu', 'qmd', 'dist', 'cli', 'qmd.js');
  if (fs.existsSync(entry)) return entry;
  const tmp = fs.mkdtempSync(path.join(QMD_CACHE, '.qmd-'));
  try {
    // Its own package.json: npm must never walk up to the project's.
    fs.writeFileSync(path.join(tmp, 'package.json'), '{ "name": "cairn-qmd-cache", "private": true }\n');
    // npm run by Node 22, so engines checks and native prebuilds match the Node that runs qmd.
    const env = { ...process.env, PATH: `${path.dirname(node)}${path.delimiter}${process.env.PATH ?? ''}` };
    const install = (spec) =>
      run(node, [npm, 'install', '--prefix', tmp, '--ignore-scripts', '--omit=optional', '--no-audit', '--no-fund', '--loglevel', 'error', spec], { cwd: tmp, env });
    // Optional deps are node-llama-cpp's GPU/CPU builds for every platform (~650 MB, only
    // for vsearch/query models): left out. sqlite-vec's binary is one of them too, and
    // `qmd update` loads it, so add just this platform's, at the version qmd pinned.
    install('@tobilu/qmd');
    const vec = JSON.parse(fs.readFileSync(path.join(tmp, 'node_modules', 'sqlite-vec', 'package.json'), 'utf8'));
    const os = process.platform === 'win32' ? 'windows' : process.platform;
    install(`sqlite-vec-${os}-${process.arch}@${vec.version}`);
    publish(tmp, prefix);
  } catch (err) {
    fs.rmSync(tmp, { recursive: true, force: true });
    throw err;
  }
  return entry;
}

/** Install (once) and return the real qmd, or why it cannot be had here. */
export function ensureRealQmd() {
  return ensureWrapped({
    cache: QMD_CACHE,
    wrapper: path.join(QMD_CACHE, 'qmd.sh'),
    label: 'qmd',
    what: 'Node 22 or @tobilu/qmd',
    brokenPaths: [path.join(QMD_CACHE, 'qmd'), path.join(QMD_CACHE, 'node22')],
    install: () => {
      const npm = npmCli();
      if (!npm) return { skip: 'npm (npm-cli.js) not found: cannot fetch Node 22 and @tobilu/qmd' };
      const node = ensureNode(npm, QMD_CACHE, 22);
      return { node, entry: ensureQmdPackage(npm, node) };
    },
  });
}

const isMain = process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) reportFetch('fetch-test-qmd', QMD_CACHE, ensureRealQmd());
