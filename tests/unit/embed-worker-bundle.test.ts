/**
 * The embed worker's script from the TypeScript sources (embed/worker-bundle.ts): one
 * CommonJS bundle of a module and its imports, reused from the cache in Cairn's data dir until an input
 * changes.
 */
import fs from 'node:fs';
import path from 'node:path';
import vm from 'node:vm';
import { describe, expect, it } from 'vitest';
import { buildWorkerBundle } from '../../electron/engine/embed/worker-bundle';
import { tmpDir } from '../helpers/tmp';

/** Run a CommonJS bundle and return its exports. */
function load(code: string): Record<string, unknown> {
  const module = { exports: {} as Record<string, unknown> };
  vm.runInNewContext(code, { module, exports: module.exports, require: () => ({}) });
  return module.exports;
}

describe('embed worker bundle', () => {
  it('bundles a module with its imports, and rebuilds when an input changes', async () => {
    const dir = tmpDir('cairn-wbundle-');
    const entry = path.join(dir, 'entry.ts');
    const dep = path.join(dir, 'dep.ts');
    fs.writeFileSync(dep, 'export const answer: number = 41;\n');
    fs.writeFileSync(entry, "import { answer } from './dep';\nexport const value = answer + 1;\n");
    const first = await buildWorkerBundle(entry);
    expect(first).not.toBeNull();
    expect(load(first!).value).toBe(42);
    // Unchanged inputs: the same script (from the cached copy).
    expect(await buildWorkerBundle(entry)).toBe(first);
    fs.writeFileSync(dep, 'export const answer: number = 1099;\n'); // another size, whatever the mtime resolution
    const second = await buildWorkerBundle(entry);
    expect(load(second!).value).toBe(1100);
  });
});
