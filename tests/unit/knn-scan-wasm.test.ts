/**
 * The KNN scan's WebAssembly (search/knn-scan-wasm.ts) is what scripts/build-knn-wasm.mjs
 * assembles from knn-scan.wat today: nobody edits one without the other.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { knnWasmModuleText } from '../../scripts/build-knn-wasm.mjs';

describe('knn-scan-wasm.ts', () => {
  it('matches knn-scan.wat', async () => {
    const committed = fs.readFileSync(path.join(__dirname, '../../electron/engine/search/knn-scan-wasm.ts'), 'utf8');
    expect(committed).toBe(await (knnWasmModuleText as () => Promise<string>)());
  });
});
