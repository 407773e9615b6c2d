// The CLI as an ESM bundle (dist/cli/bundle/), so `cairn` starts without compiling ~150
// TypeScript files through tsx on every run (measured in docs/benchmarks.md: tsx start-up
// alone was most of `cairn search`'s wall time). Lazy `import()`s stay lazy (code
// splitting). Small pure-JS packages (zod, commander, json5) are bundled too, as classic
// scripts with a V8 code cache (scripts/cli-vendor.mjs): loading zod's ~95 ESM files from
// node_modules took ~70 ms of every start. Native, large or path-located packages stay
// external and resolve from node_modules as usual.
// bin/cairn.mjs uses the bundle only while it is fresh (see bin/cli-bundle.mjs).
import fs from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';
import { BUNDLE_DIR, MANIFEST } from '../bin/cli-bundle.mjs';
import { buildVendor, vendorPlugin } from './cli-vendor.mjs';
import { buildCliScripts } from './build-cli-script.mjs';

/**
 * Packages left to node_modules: native addons, packages found by path at run time (tsx
 * for workers), the big MCP SDK packages (only `cairn mcp` and `/mcp` load them) and
 * cli-progress (required lazily, only when a progress bar is drawn).
 */
const EXTERNAL = [
  'better-sqlite3',
  'sqlite-vec',
  'node-llama-cpp',
  'chokidar',
  '@modelcontextprotocol/sdk',
  '@modelcontextprotocol/server',
  '@modelcontextprotocol/node',
  'tsx',
  'cli-progress',
  'electron',
];

/**
 * zod's namespace re-exports all ~50 of its message locales (`z.locales`), half of its
 * 750 KB: parsing them cost ~10 ms of every start. Nothing in Cairn calls `z.locales`
 * (messages stay English, which zod installs by itself), so the bundle gets an empty one.
 */
const zodWithoutLocales = {
  name: 'zod-without-locales',
  setup(b) {
    b.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      /[\\/]node_modules[\\/]zod[\\/]v4[\\/](core|classic)[\\/]/.test(args.importer) ? { path: 'zod-locales', namespace: 'cairn-empty' } : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'cairn-empty' }, () => ({ contents: 'export {};', loader: 'js' }));
  },
};

/**
 * The shipped static model beside the bundle (`<outdir>/resources/models/`), where the
 * embedder looks first from its chunk: a bundle built outside the checkout (tests) finds it
 * too. A hard link where the file system allows, else a copy (8 MB).
 */
function linkModels(root, outdir) {
  const from = path.join(root, 'resources', 'models');
  const to = path.join(outdir, 'resources', 'models');
  fs.mkdirSync(to, { recursive: true });
  for (const f of fs.readdirSync(from)) {
    try {
      fs.linkSync(path.join(from, f), path.join(to, f));
    } catch {
      fs.copyFileSync(path.join(from, f), path.join(to, f));
    }
  }
}

/**
 * Build dist/cli/bundle/cairn-cli.js and the manifest of its inputs (`outdir`: elsewhere,
 * for tests — the shared dist is rebuilt by other runs).
 */
export async function buildCli(root, { outdir = path.join(root, BUNDLE_DIR) } = {}) {
  const builtAt = Date.now();
  // Three levels deep on purpose: serve.ts finds dist/renderer as ../../../dist/renderer from
  // its own module, in the sources (electron/cli/commands) and in the bundle alike.
  fs.rmSync(outdir, { recursive: true, force: true });
  const result = await build({
    absWorkingDir: root,
    // thin-rules: the engine's rules bin/thin-client.mjs loads for `cairn search` (kept light).
    entryPoints: { 'cairn-cli': path.join(root, 'electron/cli/main.ts'), 'thin-rules': path.join(root, 'electron/cli/thin-rules.ts') },
    bundle: true,
    splitting: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    external: EXTERNAL.flatMap((p) => [p, `${p}/*`]),
    // A real `require` in every ESM chunk: esbuild turns `require` in the sources into a stub
    // that throws in ESM output, and bundled CommonJS packages call it.
    banner: { js: "import { createRequire as __cairnCreateRequire } from 'node:module';\nconst require = __cairnCreateRequire(import.meta.url);" },
    outdir,
    chunkNames: 'chunks/[name]-[hash]',
    sourcemap: 'linked',
    metafile: true,
    plugins: [vendorPlugin()],
    logLevel: 'warning',
  });
  await buildVendor(root, outdir, [zodWithoutLocales]);
  linkModels(root, outdir);
  // The same CLI as one code-cached script, for a one-shot `cairn search` (build-cli-script.mjs).
  const scripts = await buildCliScripts(root, outdir, { esm: result.metafile, external: EXTERNAL.flatMap((p) => [p, `${p}/*`]), plugins: [zodWithoutLocales] });
  // Source files only (the search script's entry is no module of the ESM bundle): not npm
  // packages, not plugins' virtual modules ("namespace:name").
  const inputs = [...new Set([...Object.keys(result.metafile.inputs), ...scripts])].filter((f) => !f.includes('node_modules') && !/^[\w-]+:/.test(f));
  fs.writeFileSync(path.join(outdir, path.relative(BUNDLE_DIR, MANIFEST)), `${JSON.stringify({ builtAt, inputs }, null, 1)}\n`);
}
