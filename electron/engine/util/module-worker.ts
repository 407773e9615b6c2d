/**
 * Start a worker thread that runs an engine module (given by its `import.meta.url`), in the
 * TypeScript sources (through tsx) and in the CLI's ESM bundle alike. The module checks
 * `workerData[mark]` on import to know it is the worker and starts serving.
 *
 * The bootstrap is a CommonJS script: a `.ts` module URL needs tsx registered in the worker
 * first (on Node 20 neither a parent's `--import tsx` nor `register()` reaches a worker).
 * Where there is no module URL (the Electron main process is a CommonJS bundle, where
 * `import.meta.url` is empty) no worker can start: `null`, and callers work in-process.
 */
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';

const BOOTSTRAP = `
const { workerData, parentPort } = require('node:worker_threads');
(async () => {
  if (workerData.tsx) {
    const tsx = await import(workerData.tsx);
    (tsx.register || (tsx.default && tsx.default.register))();
  }
  await import(workerData.url);
})().catch((err) => parentPort.postMessage({ type: 'failed', message: String((err && err.stack) || err) }));
`;

/** URL of tsx's ESM register API (its CommonJS build cannot register hooks in a worker). */
function tsxApi(from: string): string | null {
  try {
    const resolve = (import.meta as { resolve?: (s: string) => string }).resolve;
    if (resolve) return resolve('tsx/esm/api');
    const cjs = createRequire(from).resolve('tsx/esm/api');
    return pathToFileURL(cjs.replace(/\.cjs$/, '.mjs')).href;
  } catch {
    return null;
  }
}

/**
 * A worker running the module at `moduleUrl` with `data` (plus `[mark]: true`) as its
 * workerData, or null when `moduleUrl` is not a file URL. If the module fails to load the
 * worker posts `{type: 'failed', message}`.
 */
export function startModuleWorker(moduleUrl: string | undefined, mark: string, data: Record<string, unknown>): Worker | null {
  const url = typeof moduleUrl === 'string' ? moduleUrl : '';
  if (!url.startsWith('file:')) return null;
  const tsx = url.endsWith('.ts') ? tsxApi(url) : null;
  return new Worker(BOOTSTRAP, { eval: true, workerData: { ...data, [mark]: true, url, tsx } });
}
