// A one-shot `cairn search` as one classic CommonJS script with a V8 code cache, beside the
// ESM bundle (scripts/build-cli.mjs): dist/cli/bundle/cairn-search.cjs and cairn-search.cjs.cache,
// and the thin client's rules the same way (thin-rules.cjs). bin/cairn.mjs runs `cairn search`
// through them (bin/cli-script.mjs): Node 20 compiles every ES module anew on each start, while
// a classic script can take a code cache, and one script skips the ES module loader's
// resolving and linking of ~45 chunks.
//
// The search script's entry is electron/cli/search-main.ts: the search command's own code
// without commander and the other commands (half the bytes of the whole CLI, which V8 read
// and the GC walked on every search). Same sources, so the same search: what differs is only
// `import.meta.url`, which a CommonJS bundle lacks. Each module that reads it gets the URL of
// the ESM bundle's chunk holding that module, so it finds what it finds there (the renderer,
// the plugin folder, the shipped model) and a worker it starts runs that chunk, as before.
//
// The cache is made by running the script at build time (a child Node, like the vendored
// packages' caches in scripts/cli-vendor.mjs): two searches on a throwaway state dir, the
// first indexing, so that what a search runs is compiled in the cache too.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { SEARCH_SCRIPT, THIN_RULES_SCRIPT } from '../bin/cli-script.mjs';

// Strict, as the ES modules it is built from: esbuild's own "use strict" comes after the
// banner's helper, where it is no directive.
const WRAP_START = '(function (exports, require, module, __filename, __dirname, __cairnImport) {"use strict";';
const WRAP_END = '\n})';
/** Defined in the wrapper: the file URL of a file of the bundle dir (the script's own dir). */
const URL_HELPER = "const __cairnUrl = (rel) => require('node:url').pathToFileURL(require('node:path').join(__dirname, rel)).href;";

/**
 * Replaces `import.meta.url` in each source file with the URL of its ESM chunk (`chunkOf`:
 * source path relative to `root` → output path relative to the bundle dir).
 */
function moduleUrls(root, chunkOf) {
  return {
    name: 'cairn-module-urls',
    setup(b) {
      b.onLoad({ filter: /\.(ts|mjs)$/ }, (args) => {
        if (args.path.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
        const text = fs.readFileSync(args.path, 'utf8');
        if (!text.includes('import.meta.url')) return undefined;
        const rel = path.relative(root, args.path).split(path.sep).join('/');
        const chunk = chunkOf.get(rel);
        if (!chunk) throw new Error(`${rel} reads import.meta.url but is in no chunk of the ESM bundle`);
        return { contents: text.replaceAll('import.meta.url', `__cairnUrl(${JSON.stringify(chunk)})`), loader: args.path.endsWith('.ts') ? 'ts' : 'js' };
      });
    },
  };
}

/**
 * better-sqlite3's JavaScript goes into the script (its ~12 files were compiled by Node's
 * CommonJS loader on every start, with no cache), its addon stays in node_modules: the
 * `bindings` package that finds the addon works out the package's folder from its caller's
 * file, which in the script is the script, so the addon is required from the package's own
 * folder instead (where `bindings` finds it for an npm install: build/Release).
 */
const sqliteAddon = {
  name: 'cairn-sqlite-addon',
  setup(b) {
    b.onLoad({ filter: /[\\/]better-sqlite3[\\/]lib[\\/]database\.js$/ }, (args) => {
      const text = fs.readFileSync(args.path, 'utf8');
      const call = "require('bindings')('better_sqlite3.node')";
      if (!text.includes(call)) throw new Error(`${args.path}: no ${call} to replace (better-sqlite3 changed?)`);
      const addon = "require(require('node:path').join(require('node:path').dirname(require.resolve('better-sqlite3/package.json')), 'build', 'Release', 'better_sqlite3.node'))";
      return { contents: text.replace(call, addon), loader: 'js' };
    });
  },
};

/**
 * The search script leaves out the whole engine (its every handler), which the CLI runtime
 * imports for `rt.engine()`/`rt.api()` — commands a search never calls: they throw here.
 */
const withoutEngine = {
  name: 'cairn-search-without-engine',
  setup(b) {
    b.onResolve({ filter: /^\.\.\/engine\/(engine|rpc\/direct)$/ }, (args) =>
      /[\\/]electron[\\/]cli[\\/]runtime\.ts$/.test(args.importer) ? { path: args.path, namespace: 'cairn-no-engine' } : undefined,
    );
    const fail = "() => { throw new Error('the search script has no engine: run the whole CLI (scripts/build-cli-script.mjs)'); }";
    b.onLoad({ filter: /.*/, namespace: 'cairn-no-engine' }, () => ({ contents: `export const createEngine = ${fail}; export const createDirectClient = ${fail};`, loader: 'js' }));
  },
};

/** Source file (relative to root) → its ESM output chunk (relative to `outdir`), from a metafile. */
function chunkMap(root, outdir, metafile) {
  const map = new Map();
  for (const [out, info] of Object.entries(metafile.outputs)) {
    if (!out.endsWith('.js')) continue;
    const rel = path.relative(outdir, path.resolve(root, out)).split(path.sep).join('/');
    for (const input of Object.keys(info.inputs)) if (!map.has(input)) map.set(input, rel);
  }
  return map;
}

/** esbuild's helper that turns a `require`d module into an ES namespace, as it writes it. */
const TO_ESM = 'var __toESM=(mod,isNodeMode,target)=>';

/**
 * Fixes to esbuild's output, made to its text after the build:
 *
 * - `import fs from 'node:fs'` compiles to `__toESM(require('node:fs'), 1)`, which copies
 *   every property of the module into a new object as a getter, once per importing file: a
 *   search initialises ~40 modules, each copying fs (100 properties) and path again. The
 *   helper is memoised per module object (the getters read the module live, so one copy
 *   serves every importer alike).
 * - `charset: 'ascii'` escapes strings and identifiers but leaves regular expression literals
 *   as written (`/[“”]/`): those become `\uXXXX` escapes too (the same pattern, with or
 *   without the `u` flag), so that the loader can read the script as latin1, skipping UTF-8
 *   decoding, and V8 keeps it as a one-byte string.
 */
function postProcess(file) {
  let text = fs.readFileSync(file, 'utf8');
  if (text.includes(TO_ESM)) {
    const memo =
      'var __toESMSeen=new WeakMap;var __toESM=(mod,isNodeMode)=>{if(mod==null||typeof mod!=="object"&&typeof mod!=="function")return __toESMEach(mod,isNodeMode);' +
      'let m=__toESMSeen.get(mod);if(!m)__toESMSeen.set(mod,m=[]);const k=isNodeMode?1:0;return m[k]??(m[k]=__toESMEach(mod,isNodeMode))};';
    text = text.replace(TO_ESM, `${memo}var __toESMEach=(mod,isNodeMode,target)=>`);
  }
  // `import("pkg")` of an external package (node-llama-cpp, chokidar, ESM-only or loaded
  // late): a classic script has no module to import from, so the loader hands in its own
  // `import` (bin/cli-script.mjs). Only literal specifiers are dynamic imports in code here;
  // `import(x)` with a variable is the worker bootstrap's text or the sources-only esbuild import.
  text = text.replace(/(?<![\w$.])import\("/g, '__cairnImport("');
  text = text.replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  fs.writeFileSync(file, text);
}

/**
 * Runs in a child Node, twice. `index`: a first search, which indexes the notes. `cache`: each
 * script, its warm-up (a search on the indexed notes for the CLI, the engine lookup for the
 * thin client's rules), then its code cache. Indexing runs in a process of its own so that
 * its code stays out of the cache: V8 reads a whole cache on every start, and the functions
 * a warm search runs are what a one-shot search needs compiled (a first search compiles the
 * indexing code as it goes, as before).
 */
const WARM_UP = `
  const [loaderUrl, dir, state, version, mode] = process.argv.slice(1);
  const { loadCliScript, codeCacheFile, SEARCH_SCRIPT, THIN_RULES_SCRIPT } = await import(loaderUrl);
  const { writeFileSync } = await import('node:fs');
  const { join } = await import('node:path');
  const rules = loadCliScript(join(dir, THIN_RULES_SCRIPT), { cache: null, produce: true });
  rules.exports.findServingEngine(state, version, process.env);
  const cli = loadCliScript(join(dir, SEARCH_SCRIPT), { cache: null, produce: true });
  const code = await cli.exports.runSearchCli({ query: 'router firmware update', stateDir: state, json: true });
  if (code !== 0) throw new Error('warm-up search exited ' + code);
  if (mode === 'cache') for (const [name, s] of [[THIN_RULES_SCRIPT, rules], [SEARCH_SCRIPT, cli]]) writeFileSync(join(dir, name + '.cache'), codeCacheFile(s.source, s.script.createCachedData()));
  // Exit (the warm-up leaves the model and SQLite handles open) once the search's output has drained.
  process.stdout.write('', () => process.exit(0));`;

/** Notes for the warm-up searches (a state dir with the static embedder, no watcher). */
function warmUpState(base) {
  const dir = path.join(base, 'state');
  const files = {
    'cairn.json': JSON.stringify({ agents: { defaults: { memorySearch: { provider: 'static', sync: { watch: false } } } } }),
    'workspace/MEMORY.md': '# Preferences\n\nPrefers dark mode and vim.\n',
    'workspace/memory/2024-05-08.md': '# Deploy\n\nDeployed the staging server after ECONNREFUSED on the router.\n',
    'workspace/memory/2024-06-01.md': '# Trip\n\nBooked the kayak trip; the router firmware update can wait.\n',
  };
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, rel), text);
  }
  return dir;
}

/** Write the scripts' code caches (not fatal: without them they compile as the bundle did). */
function writeCaches(root, outdir) {
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-cli-cache-'));
  try {
    // The warm-up's index and settings go to a throwaway home, never the user's.
    const env = { ...process.env, HOME: base, XDG_DATA_HOME: path.join(base, 'data'), XDG_CACHE_HOME: path.join(base, 'cache'), XDG_CONFIG_HOME: path.join(base, 'config'), CAIRN_STATE_DIR: '' };
    const loader = pathToFileURL(path.join(root, 'bin', 'cli-script.mjs')).href;
    const { version } = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
    const state = warmUpState(base);
    const run = (mode) => spawnSync(process.execPath, ['--input-type=module', '-e', WARM_UP, loader, outdir, state, version, mode], { encoding: 'utf8', env });
    let r = run('index');
    if (r.status === 0) r = run('cache');
    if (r.status !== 0) {
      for (const name of Object.keys(SCRIPTS)) fs.rmSync(path.join(outdir, `${name}.cache`), { force: true });
      console.warn(`cairn: CLI code cache not written: ${(r.stderr || r.error?.message || '').trim().slice(-2000)}`);
    }
  } finally {
    fs.rmSync(base, { recursive: true, force: true });
  }
}

/** The scripts, by file name in the bundle dir: the search, and the thin client's rules. */
const SCRIPTS = { [SEARCH_SCRIPT]: 'electron/cli/search-main.ts', [THIN_RULES_SCRIPT]: 'electron/cli/thin-rules.ts' };

/**
 * Build `<outdir>/cairn-search.cjs` and `thin-rules.cjs` and their code caches. `esm` is the ESM
 * bundle's metafile (its chunks give each module its URL); `plugins` are the ESM build's own
 * (zod's locales). Returns the scripts' input files (relative to `root`), for the manifest.
 */
export async function buildCliScripts(root, outdir, { esm, external, plugins = [] }) {
  const inputs = new Set();
  for (const [name, entry] of Object.entries(SCRIPTS)) for (const f of await buildScript(root, outdir, name, entry, { esm, external, plugins })) inputs.add(f);
  writeCaches(root, outdir);
  return [...inputs];
}

async function buildScript(root, outdir, name, entry, { esm, external, plugins }) {
  const file = path.join(outdir, name);
  const { metafile } = await build({
    absWorkingDir: root,
    entryPoints: [path.join(root, entry)],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    // ASCII (see postProcess) and without comments or indentation: 40 % fewer bytes to read.
    charset: 'ascii',
    minifyWhitespace: true,
    sourcemap: 'linked',
    external: external.filter((p) => !p.startsWith('better-sqlite3')),
    outfile: file,
    banner: { js: `${WRAP_START}\n${URL_HELPER}` },
    footer: { js: WRAP_END },
    plugins: [...plugins, sqliteAddon, ...(name === SEARCH_SCRIPT ? [withoutEngine] : []), moduleUrls(root, chunkMap(root, outdir, esm))],
    // module-worker.ts asks `import.meta.resolve` only from the TypeScript sources.
    logOverride: { 'empty-import-meta': 'silent', 'require-resolve-not-external': 'silent' },
    logLevel: 'warning',
    metafile: true,
  });
  postProcess(file);
  return Object.keys(metafile.inputs);
}
