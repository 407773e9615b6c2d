#!/usr/bin/env node
// The `cairn` executable: runs the TypeScript CLI through tsx's loader, so it works right
// after `npm install` on a fresh clone with no build step. When `npm run build` has made a
// CLI bundle that is still fresh (no source edited since), that runs instead: it skips
// tsx's per-run compile, most of a short command's start-up (docs/benchmarks.md).
import { pathToFileURL, fileURLToPath } from 'node:url';
import { freshCliBundle } from './cli-bundle.mjs';

const bundle = freshCliBundle(fileURLToPath(new URL('..', import.meta.url)));
let runCli;
if (bundle) ({ runCli } = await import(pathToFileURL(bundle).href));
else {
  const { register } = await import('tsx/esm/api');
  register();
  ({ runCli } = await import('../electron/cli/main.ts'));
}
const code = await runCli(process.argv.slice(2));
process.exit(code);
