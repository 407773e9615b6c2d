/**
 * A shared, once-converted static word-vector model for tests: converting the 307 MB wink
 * JSON takes seconds, so the suite does it once into node_modules/.cache/cairn-test/ and
 * every test (and every vitest worker) reuses it. A lock directory keeps parallel workers
 * from converting at the same time.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { staticModelPath } from '../electron/engine/embed/static';
import { convertWinkEmbeddings } from '../electron/engine/embed/static-convert';
import { STATIC_FORMAT_VERSION } from '../electron/engine/embed/static-format';

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

/** A models dir holding the converted static model (full vocabulary), built once. */
export async function sharedStaticModelsDir(): Promise<string> {
  const dir = path.join(TEST_CACHE_DIR, `static-v${STATIC_FORMAT_VERSION}`);
  fs.mkdirSync(TEST_CACHE_DIR, { recursive: true });
  await withLock(`${dir}.lock`, () => fs.existsSync(staticModelPath(dir)), () => convertWinkEmbeddings(dir));
  return dir;
}

export { withLock as withBuildLock };
