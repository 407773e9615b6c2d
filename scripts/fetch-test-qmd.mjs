#!/usr/bin/env node
/**
 * The real QMD CLI for the qmd-real tests (issue 5), installed BEFORE the tests run (by
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
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The private cache (override with CAIRN_QMD_CACHE). */
export const QMD_CACHE = process.env.CAIRN_QMD_CACHE ?? path.join(repoRoot, 'node_modules', '.cache', 'cairn-qmd');

export function npmCli() {
  const candidates = [
    process.env.npm_execpath,
    path.resolve(path.dirname(process.execPath), '..', 'lib', 'node_modules', 'npm', 'bin', 'npm-cli.js'),
  ];
  try {
    const npm = execFileSync('sh', ['-c', 'command -v npm'], { encoding: 'utf8' }).trim();
    if (npm) candidates.push(path.resolve(path.dirname(fs.realpathSync(npm)), 'npm-cli.js'));
  } catch {
    // no npm on PATH
  }
  return candidates.find((c) => Boolean(c && c.endsWith('npm-cli.js') && fs.existsSync(c))) ?? null;
}

export function run(cmd, args, opts) {
  return execFileSync(cmd, args, { cwd: opts.cwd, env: opts.env ?? process.env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 * 1024 * 1024 });
}

export function errText(err) {
  const e = err;
  return `${e.message}${e.stderr ? `\n${e.stderr.trim().split('\n').slice(-5).join('\n')}` : ''}`.slice(0, 1000);
}

/** Rename a finished temp dir into place; another run that got there first wins. */
export function publish(tmp, final) {
  try {
    fs.renameSync(tmp, final);
  } catch {
    fs.rmSync(tmp, { recursive: true, force: true });
    if (!fs.existsSync(final)) throw new Error(`could not move ${tmp} to ${final}`);
  }
}

/** A Node ≥ 22 binary: this one if new enough, else the cached `node-<os>-<arch>@22` (also used by fetch-test-conformance.mjs). */
export function ensureNode22(npm) {
  if (Number(process.versions.node.split('.')[0]) >= 22) return process.execPath;
  const dir = path.join(QMD_CACHE, 'node22');
  const bin = path.join(dir, 'bin', 'node');
  if (fs.existsSync(bin)) return bin;
  const pkg = `node-${process.platform}-${process.arch}@22`;
  const tmp = fs.mkdtempSync(path.join(QMD_CACHE, '.node22-'));
  try {
    const tgz = run(process.execPath, [npm, 'pack', pkg, '--silent', '--pack-destination', tmp], { cwd: tmp }).trim().split('\n').pop();
    run('tar', ['xzf', path.join(tmp, tgz), '-C', tmp], { cwd: tmp });
    if (!fs.existsSync(path.join(tmp, 'package', 'bin', 'node'))) throw new Error(`${pkg} has no bin/node`);
    publish(path.join(tmp, 'package'), dir);
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  return bin;
}

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
  const started = Date.now();
  const wrapper = path.join(QMD_CACHE, 'qmd.sh');
  let installed = false;
  const install = () => {
    if (process.platform === 'win32') return { skip: 'the qmd test set-up supports Linux and macOS only' };
    const npm = npmCli();
    if (!npm) return { skip: 'npm (npm-cli.js) not found: cannot fetch Node 22 and @tobilu/qmd' };
    const node = ensureNode22(npm);
    const entry = ensureQmdPackage(npm, node);
    const tmp = `${wrapper}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, `#!/bin/sh\n# QMD with the cached Node 22 (scripts/fetch-test-qmd.mjs)\nexec "${node}" "${entry}" "$@"\n`, { mode: 0o755 });
    fs.renameSync(tmp, wrapper);
    installed = true;
    return null;
  };
  const version = () => run(wrapper, ['--version'], { cwd: QMD_CACHE }).trim();
  try {
    fs.mkdirSync(QMD_CACHE, { recursive: true });
    if (!fs.existsSync(wrapper)) {
      const skip = install();
      if (skip) return skip;
    }
    let v;
    try {
      v = version();
    } catch (err) {
      if (installed) throw err;
      // A cache left broken (interrupted, or the checkout moved): install again, once.
      for (const p of [wrapper, path.join(QMD_CACHE, 'qmd'), path.join(QMD_CACHE, 'node22')]) fs.rmSync(p, { recursive: true, force: true });
      const skip = install();
      if (skip) return skip;
      v = version();
    }
    return { command: wrapper, version: v, installMs: installed ? Date.now() - started : 0 };
  } catch (err) {
    return { skip: `Node 22 or @tobilu/qmd could not be installed into ${QMD_CACHE}: ${errText(err)}` };
  }
}

const isMain = process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) {
  const res = ensureRealQmd();
  const errFile = path.join(QMD_CACHE, '.last-error');
  if ('skip' in res) {
    try {
      fs.mkdirSync(QMD_CACHE, { recursive: true });
      fs.writeFileSync(errFile, `${res.skip.split('\n')[0]}\n`);
    } catch {}
    if (process.argv.includes('--json')) process.stdout.write(`${JSON.stringify({ skip: res.skip })}\n`);
    else process.stderr.write(`fetch-test-qmd: ${res.skip.split('\n')[0]}\n`);
    process.exitCode = process.argv.includes('--soft') ? 0 : 1;
  } else {
    fs.rmSync(errFile, { force: true });
    if (process.argv.includes('--json')) process.stdout.write(`${JSON.stringify({ command: res.command, version: res.version })}\n`);
    else process.stdout.write(`fetch-test-qmd: ${res.version} at ${res.command}${res.installMs ? ` (installed in ${(res.installMs / 1000).toFixed(1)} s)` : ''}\n`);
  }
}
