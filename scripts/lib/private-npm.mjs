/**
 * Helpers for installing a test-only npm package under a Node of its own into a private
 * prefix (never system-wide, never into the project's node_modules): find npm's CLI, run a
 * command with captured output, unpack `node-<os>-<arch>@<major>` from the npm registry, and
 * move a finished temp dir into place so concurrent runs never see half an install.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/** npm's `npm-cli.js`, run with any Node; null when there is none. */
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

/** Run a command, returning its stdout; throws with its stderr on failure. */
export function run(cmd, args, opts) {
  return execFileSync(cmd, args, { cwd: opts.cwd, env: opts.env ?? process.env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 * 1024 * 1024 });
}

/** An error's message with the last lines of its stderr, short enough for one report line. */
export function errText(err) {
  return `${err.message}${err.stderr ? `\n${String(err.stderr).trim().split('\n').slice(-5).join('\n')}` : ''}`.slice(0, 1000);
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

/**
 * A Node binary of at least `major`: this one if new enough, else `node-<os>-<arch>@<major>`
 * unpacked (once) into `<cache>/node<major>`.
 */
export function ensureNode(npm, cache, major) {
  if (Number(process.versions.node.split('.')[0]) >= major) return process.execPath;
  const dir = path.join(cache, `node${major}`);
  const bin = path.join(dir, 'bin', 'node');
  if (fs.existsSync(bin)) return bin;
  const pkg = `node-${process.platform}-${process.arch}@${major}`;
  const tmp = fs.mkdtempSync(path.join(cache, `.node${major}-`));
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

/**
 * Install npm `specs` with `node` (so engines checks and native prebuilds match it) into a
 * fresh temp prefix with its own package.json (npm must never walk up to the project's),
 * then move it to `prefix`. `extraArgs` are passed to `npm install`.
 */
export function installPrivate(npm, node, cache, prefix, specs, extraArgs = []) {
  const tmp = fs.mkdtempSync(path.join(cache, `.${path.basename(prefix)}-`));
  try {
    fs.writeFileSync(path.join(tmp, 'package.json'), `{ "name": "cairn-${path.basename(prefix)}-cache", "private": true }\n`);
    const env = { ...process.env, PATH: `${path.dirname(node)}${path.delimiter}${process.env.PATH ?? ''}` };
    run(node, [npm, 'install', '--prefix', tmp, '--no-audit', '--no-fund', '--loglevel', 'error', ...extraArgs, ...specs], { cwd: tmp, env });
    publish(tmp, prefix);
  } catch (err) {
    fs.rmSync(tmp, { recursive: true, force: true });
    throw err;
  }
}

/**
 * A wrapper script `wrapper` that runs `entry` with `node`, made (once) by `install()` —
 * which returns `{node, entry}` or `{skip}` — and checked by running `--version`. A cache left
 * broken (interrupted, or the checkout moved) is removed (`brokenPaths`) and installed again,
 * once. Returns `{command, version, installMs}` or `{skip}` (`what` names it in the reason).
 */
export function ensureWrapped({ cache, wrapper, label, what, brokenPaths, install }) {
  const started = Date.now();
  let installed = false;
  const make = () => {
    if (process.platform === 'win32') return { skip: `the ${label} test set-up supports Linux and macOS only` };
    const got = install();
    if ('skip' in got) return got;
    const tmp = `${wrapper}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, `#!/bin/sh\n# ${label} with its own cached Node (scripts/lib/private-npm.mjs)\nexec "${got.node}" "${got.entry}" "$@"\n`, { mode: 0o755 });
    fs.renameSync(tmp, wrapper);
    installed = true;
    return null;
  };
  const version = () => run(wrapper, ['--version'], { cwd: cache }).trim();
  try {
    fs.mkdirSync(cache, { recursive: true });
    if (!fs.existsSync(wrapper)) {
      const skip = make();
      if (skip) return skip;
    }
    let v;
    try {
      v = version();
    } catch (err) {
      if (installed) throw err;
      for (const p of [wrapper, ...brokenPaths]) fs.rmSync(p, { recursive: true, force: true });
      const skip = make();
      if (skip) return skip;
      v = version();
    }
    return { command: wrapper, version: v, installMs: installed ? Date.now() - started : 0 };
  } catch (err) {
    return { skip: `${what} could not be installed into ${cache}: ${errText(err)}` };
  }
}

/**
 * A fetch script's command line: print the result (`--json`: one JSON line), keep the reason
 * of a failure in `<cache>/.last-error` for the tests' skip message, and exit 1 on failure
 * (0 with `--soft`).
 */
export function reportFetch(name, cache, res) {
  const errFile = path.join(cache, '.last-error');
  const json = process.argv.includes('--json');
  if ('skip' in res) {
    try {
      fs.mkdirSync(cache, { recursive: true });
      fs.writeFileSync(errFile, `${res.skip.split('\n')[0]}\n`);
    } catch {}
    if (json) process.stdout.write(`${JSON.stringify({ skip: res.skip })}\n`);
    else process.stderr.write(`${name}: ${res.skip.split('\n')[0]}\n`);
    process.exitCode = process.argv.includes('--soft') ? 0 : 1;
  } else {
    fs.rmSync(errFile, { force: true });
    if (json) process.stdout.write(`${JSON.stringify({ command: res.command, version: res.version })}\n`);
    else process.stdout.write(`${name}: ${res.version} at ${res.command}${res.installMs ? ` (installed in ${(res.installMs / 1000).toFixed(1)} s)` : ''}\n`);
  }
}
