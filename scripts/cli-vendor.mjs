// The CLI bundle's pure-JS npm packages (zod, commander, json5) as classic scripts with a V8
// code cache, for scripts/build-cli.mjs. Every `cairn` start compiled them anew, and Node 20
// has no compile cache for ES modules (module.enableCompileCache came in Node 22), but
// vm.Script takes `cachedData`: measured, zod's load + first parse went from ~40 to ~15 ms.
//
// Each package becomes dist/cli/bundle/vendor/<name>.js: one function expression
// `(function (exports, require, module, __filename, __dirname) {…})` (CommonJS, bundled by
// esbuild), and <name>.js.cache, the code cache made by running it once in a child Node at
// build time (after a warm-up, so the functions a search calls are in it too). The ESM
// bundle imports the package through a small shim module that loads that script.
//
// The scripts load through the one code-cache loader, bin/cli-script.mjs (bundled into the
// shim's chunk), with its checksum rule: a cache that is corrupt, truncated, made for another
// script or refused by V8 (another Node version, other V8 flags such as --cpu-prof) is not
// used and the script compiles from its source as before: the cache can only make loading faster.
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

/** The one code-cache loader, which the shims import (esbuild bundles it) and the build runs. */
const CODE_CACHE_LOADER = fileURLToPath(new URL('../bin/cli-script.mjs', import.meta.url));

export const VENDOR_DIR = 'vendor';

const WRAP_START = '(function (exports, require, module, __filename, __dirname) {';
const WRAP_END = '\n})';

/**
 * Each vendored package: what the shim re-exports (the names Cairn's sources import), and a
 * warm-up run before the code cache is written (`x` is the package's exports).
 */
const PACKAGES = {
  zod: {
    entry: "export * from 'zod';",
    shim: 'export const z = m.z;\nexport default m.z;',
    warm: `const { z } = x; z.config({ jitless: true });
      const S = z.looseObject({ a: z.string().default('x'), b: z.number().int().positive().optional(), c: z.array(z.enum(['p', 'q'])).default([]),
        d: z.record(z.string(), z.unknown()).optional(), e: z.union([z.literal(1), z.boolean()]).optional(), f: z.looseObject({ g: z.number().min(0).max(1).default(0.5) }).default({}) });
      S.safeParse({}); S.safeParse({ a: 1, b: -1 });`,
  },
  commander: {
    entry: "export * from 'commander';",
    shim: 'export const { Command, CommanderError, Option, Argument, Help, InvalidArgumentError, createCommand } = m;',
    warm: `const p = new x.Command('w').exitOverride().option('--s <d>').configureOutput({ writeOut() {}, writeErr() {} });
      p.command('c').argument('<q>').option('-n, --n <n>').option('--json').action(() => {});
      p.parse(['c', 'q', '-n', '2', '--json'], { from: 'user' });`,
  },
  json5: {
    entry: "export { default } from 'json5';",
    shim: 'export default m.default;',
    warm: "x.default.parse('{a: 1, // c\\n b: [\"x\", 2.5e3,], c: {d: null}}');",
  },
};

/** The loader inlined into each shim: run the vendored script with its code cache. */
const LOADER = `import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadCliScript } from ${JSON.stringify(CODE_CACHE_LOADER)};
function load(name) {
  // This shim lands in the bundle's entry or in chunks/; the vendor dir sits beside the entry.
  let dir = path.dirname(fileURLToPath(import.meta.url));
  if (path.basename(dir) === 'chunks') dir = path.dirname(dir);
  return loadCliScript(path.join(dir, ${JSON.stringify(VENDOR_DIR)}, name + '.js')).exports;
}`;

/** An esbuild plugin that resolves the vendored packages to their shims. */
export function vendorPlugin() {
  const names = Object.keys(PACKAGES);
  return {
    name: 'cairn-vendor',
    setup(b) {
      b.onResolve({ filter: new RegExp(`^(${names.join('|')})$`) }, (args) => ({ path: args.path, namespace: 'cairn-vendor' }));
      b.onLoad({ filter: /.*/, namespace: 'cairn-vendor' }, (args) => ({
        contents: `${LOADER}\nconst m = load(${JSON.stringify(args.path)});\n${PACKAGES[args.path].shim}\n`,
        loader: 'js',
        resolveDir: path.dirname(CODE_CACHE_LOADER),
      }));
    },
  };
}

/** Build `<outdir>/vendor/<name>.js` for each package, then their code caches. */
export async function buildVendor(root, outdir, plugins = []) {
  const dir = path.join(outdir, VENDOR_DIR);
  for (const [name, p] of Object.entries(PACKAGES)) {
    await build({
      absWorkingDir: root,
      stdin: { contents: p.entry, resolveDir: root, loader: 'js' },
      bundle: true,
      platform: 'node',
      format: 'cjs',
      target: 'node20',
      outfile: path.join(dir, `${name}.js`),
      banner: { js: WRAP_START },
      footer: { js: WRAP_END },
      plugins,
      logLevel: 'warning',
    });
  }
  // The cache must come from the Node that will run the CLI; this build's Node is the best
  // guess (npm install builds with it). A child process, so that this one's flags do not count.
  // Through the same loader (no cache read, the script kept) and the same cache file format.
  const make = `
    const [loaderUrl, dir, warm] = [process.argv[1], process.argv[2], JSON.parse(process.argv[3])];
    const { loadCliScript, codeCacheFile } = await import(loaderUrl);
    const { writeFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    for (const [name, code] of Object.entries(warm)) {
      const file = join(dir, name + '.js');
      const s = loadCliScript(file, { cache: null, produce: true });
      new Function('x', code)(s.exports);
      writeFileSync(file + '.cache', codeCacheFile(s.source, s.script.createCachedData()));
    }`;
  const warm = Object.fromEntries(Object.entries(PACKAGES).map(([n, p]) => [n, p.warm]));
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', make, pathToFileURL(CODE_CACHE_LOADER).href, dir, JSON.stringify(warm)], { encoding: 'utf8' });
  if (r.status !== 0) {
    // Not fatal: without caches the scripts compile as they would have anyway.
    for (const n of Object.keys(PACKAGES)) fs.rmSync(path.join(dir, `${n}.js.cache`), { force: true });
    console.warn(`cairn: CLI vendor code cache not written: ${(r.stderr || r.error?.message || '').trim()}`);
  }
}
