// The CLI as an ESM bundle (dist/cli/bundle/), so `cairn` starts without compiling ~150
// TypeScript files through tsx on every run (measured in docs/benchmarks.md: tsx start-up
// alone was most of `cairn search`'s wall time). Lazy `import()`s stay lazy (code
// splitting); npm packages stay external and resolve from node_modules as usual.
// bin/cairn.mjs uses the bundle only while it is fresh (see bin/cli-bundle.mjs).
import fs from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';
import { BUNDLE_DIR, MANIFEST } from '../bin/cli-bundle.mjs';

/** Build dist/cli/bundle/cairn-cli.js and the manifest of its inputs. */
export async function buildCli(root) {
  const builtAt = Date.now();
  // Three levels deep on purpose: serve.ts finds dist/renderer as ../../../dist/renderer from
  // its own module, in the sources (electron/cli/commands) and in the bundle alike.
  const outdir = path.join(root, BUNDLE_DIR);
  fs.rmSync(outdir, { recursive: true, force: true });
  const result = await build({
    absWorkingDir: root,
    entryPoints: { 'cairn-cli': path.join(root, 'electron/cli/main.ts') },
    bundle: true,
    splitting: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    outdir,
    chunkNames: 'chunks/[name]-[hash]',
    sourcemap: 'linked',
    metafile: true,
    logLevel: 'warning',
  });
  const inputs = Object.keys(result.metafile.inputs).filter((f) => !f.includes('node_modules'));
  fs.writeFileSync(path.join(root, MANIFEST), `${JSON.stringify({ builtAt, inputs }, null, 1)}\n`);
}
