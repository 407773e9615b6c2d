// Build: the renderer with Vite (dist/renderer) and the Electron main + preload with esbuild
// (dist/electron). Runs on `npm install` (prepare), before `npm start` and `npm test`.
import { build as viteBuild } from 'vite';
import { build as esbuild } from 'esbuild';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const only = process.argv[2]; // 'renderer' | 'electron' | undefined (both)

if (!only || only === 'renderer') {
  // Always the production React build users get: vitest's globalSetup runs this script with
  // NODE_ENV=test inherited, which Vite keeps, so the e2e suite measured React's development
  // build (StrictMode doubling every first call) instead.
  process.env.NODE_ENV = 'production';
  await viteBuild({ mode: 'production', root: path.join(root, 'renderer'), configFile: path.join(root, 'vite.config.ts'), logLevel: 'warn' });
}
if (!only || only === 'electron') {
  const common = {
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    sourcemap: true,
    logLevel: 'warning',
    // Native and large runtime packages stay in node_modules (unpacked from the asar).
    external: ['electron', 'better-sqlite3', 'sqlite-vec', 'node-llama-cpp', 'chokidar'],
    // import.meta.url is empty in CommonJS on purpose: the worker modules then start from
    // their own builds (dist/electron/workers, registered by main.ts).
    logOverride: { 'empty-import-meta': 'silent' },
  };
  await esbuild({ ...common, entryPoints: [path.join(root, 'electron/main/main.ts')], outfile: path.join(root, 'dist/electron/main.cjs') });
  await esbuild({ ...common, entryPoints: [path.join(root, 'electron/preload/preload.ts')], outfile: path.join(root, 'dist/electron/preload.cjs') });
  // Worker modules as ES modules of their own (main.cjs has no module URLs to start them from).
  const { buildWorkers } = await import('./build-workers.mjs');
  await buildWorkers(root);
}
if (!only || only === 'cli') {
  // The CLI bundle bin/cairn.mjs runs while fresh (scripts/build-cli.mjs).
  const { buildCli } = await import('./build-cli.mjs');
  await buildCli(root);
}
console.log('cairn: build done');
