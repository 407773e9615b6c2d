/**
 * Engine gap of issue 14, in Chromium: the Memory page refreshes a file changed on disk while
 * the embedder is still loading (before, the watcher waited for the embedder, so the page
 * stayed stale for as long as a model took to load — forever when it never did).
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openPage } from '../helpers/browser';
import { e2eEnv } from '../helpers/e2e-env';
import { seedMemory } from '../helpers/seed-memory';
import { memoryRegistry } from '../../electron/engine/index/registry';
import type { Embedder } from '../../electron/engine/embed/types';

let release: (() => void) | undefined;
// An embedder that is still loading until the test lets it go.
const loading = new Promise<Embedder | null>((resolve) => (release = () => resolve(null)));
const env = e2eEnv('cairn-e2e-memory-live-', (dir) => seedMemory(dir).workspace, { createEmbedder: () => loading });

describe('Memory page while the embedder loads', () => {
  it('shows an edit made on disk', async () => {
    try {
      const { page, errors } = await openPage(env.browser, `${env.served.server.openUrl}#/memory?path=MEMORY.md`);
      await page.getByTestId('memory-rendered').getByText('Standing decisions').waitFor();
      // The watcher the page's memory.list started is ready (resolves on chokidar's ready event).
      await memoryRegistry(env.served.engine.ctx).watch('main');
      fs.appendFileSync(path.join(env.seeded, 'MEMORY.md'), '\n- Added outside Cairn: okapi-lantern.\n');
      await page.getByTestId('memory-rendered').getByText('okapi-lantern').waitFor();
      expect(errors).toEqual([]);
      await page.close();
    } finally {
      release?.();
    }
  });
});
