// The engine's worker modules (the KNN worker, the embed worker, the index's write worker) as ES modules of their own,
// for the Electron main process: its bundle is CommonJS, where a module has no URL to start
// a worker from, so main.ts registers these files instead (util/module-worker.ts
// registerWorkerModule). Native packages stay external (unpacked from the asar next to
// these files, see electron-builder.yml); everything else is bundled in.
import path from 'node:path';
import { build } from 'esbuild';

/** Entry points, by output name (dist/electron/workers/<name>.mjs). */
export const WORKER_ENTRIES = {
  'knn-worker': 'electron/engine/search/knn-worker.ts',
  'embed-worker': 'electron/engine/embed/embed-worker.ts',
  'write-worker': 'electron/engine/index/write-worker.ts',
};

/** Build the worker modules into `outdir`. */
export async function buildWorkers(root, outdir = path.join(root, 'dist/electron/workers')) {
  await build({
    absWorkingDir: root,
    entryPoints: Object.fromEntries(Object.entries(WORKER_ENTRIES).map(([name, file]) => [name, path.join(root, file)])),
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outdir,
    outExtension: { '.js': '.mjs' },
    sourcemap: true,
    logLevel: 'warning',
    external: ['electron', 'better-sqlite3', 'sqlite-vec', 'node-llama-cpp', 'esbuild', 'tsx'],
    // Bundled CommonJS code calls `require`; an ES module has none of its own.
    banner: { js: "import { createRequire as __cairnCreateRequire } from 'node:module';\nconst require = __cairnCreateRequire(import.meta.url);" },
  });
}
