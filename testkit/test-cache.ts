/**
 * Where the suite keeps what it generates once and shares across runs and vitest workers
 * (the tiny GGUF model, worker and CLI builds): node_modules/.cache/cairn-test/, with a
 * lock directory so that parallel workers do not build the same file at once.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Cache root for generated test models. */
export const TEST_CACHE_DIR = path.join(root, 'node_modules', '.cache', 'cairn-test');

async function withLock<T>(lockDir: string, ready: () => boolean, build: () => Promise<T>): Promise<void> {
  for (let i = 0; ; i++) {
    if (ready()) return;
    try {
      fs.mkdirSync(lockDir, { recursive: false });
    } catch {
      // Someone else is building; a lock older than 5 minutes is from a killed run.
      const age = Date.now() - (fs.statSync(lockDir, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
      if (age > 5 * 60_000) fs.rmSync(lockDir, { recursive: true, force: true });
      await new Promise((r) => setTimeout(r, 200));
      if (i > 3000) throw new Error(`timed out waiting for ${lockDir}`);
      continue;
    }
    try {
      if (!ready()) await build();
    } finally {
      fs.rmSync(lockDir, { recursive: true, force: true });
    }
  }
}

export { withLock as withBuildLock };
