/**
 * A local chat model for a person without one, in Chromium: Chat's no-model panel lists the
 * recommended models with size, memory, licence and use; one click downloads the model into
 * Cairn's models dir with progress, Cancel stops it keeping the part already fetched, the next
 * click resumes (asks the server only for the rest) and the model becomes the chat model.
 * The files come from a local HTTP server with Range support serving the test chat model,
 * in place of Hugging Face. Offline, the window says so at once.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchChromium, screenshot } from '../helpers/browser';
import { axe, newPage } from '../helpers/axe';
import { freshHome, serveHost, type HostServed } from '../helpers/host-server';
import { startModelFileServer, type ModelFileServer } from '../helpers/model-file-server';
import { testModel } from '../helpers/test-models';

const chat = testModel('chat');
let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

/** Range requests after `from`: the parts a download asks for. */
function rangeRequests(server: ModelFileServer, from: number): number {
  return server.requests.slice(from).filter((r) => r.method === 'GET' && r.range).length;
}

describe.skipIf(!chat.path)(`Download a recommended chat model${chat.skip}`, () => {
  let served: HostServed | undefined;
  let files: ModelFileServer | undefined;
  afterAll(async () => {
    await served?.close();
    await files?.close();
  });

  it('lists the models, downloads with progress, cancels, resumes and selects the model', async () => {
    const modelFile = chat.path ?? '';
    const size = fs.statSync(modelFile).size;
    files = await startModelFileServer(modelFile, { holdAfter: Math.floor(size / 8) });
    const home = freshHome({ openclaw: true });
    served = await serveHost(home, { modelDownloadBaseUrl: files.url });
    const { page, errors } = await newPage(browser, 1440, 'light');
    await page.goto(`${served.server.openUrl}#/chat`);
    const list = page.getByRole('list', { name: 'Recommended models' });
    await list.waitFor();
    const items = list.getByRole('listitem');
    expect(await items.count()).toBeGreaterThanOrEqual(2);
    const qwen = list.locator('[data-model="qwen2.5-1.5b"]');
    expect(await qwen.textContent()).toMatch(/1\.1 GB download · needs about 2\.0 GB of memory · Apache-2\.0/);
    expect(await list.locator('[data-model="llama3.2-3b"]').textContent()).toMatch(/2\.0 GB download.*Llama 3\.2 Community License/);
    expect(await axe(page)).toEqual([]);
    await screenshot(page, 'model-download-list-1440-light');

    await page.getByRole('button', { name: 'Download and use Qwen2.5 1.5B Instruct (Q4_K_M)' }).click();
    await files.held;
    const bar = page.getByRole('progressbar', { name: 'Downloading Qwen2.5 1.5B Instruct (Q4_K_M)' });
    await bar.waitFor();
    await screenshot(page, 'model-download-progress');
    await qwen.getByRole('button', { name: 'Cancel' }).click();
    await page.getByTestId('recommended-message').filter({ hasText: 'Download stopped' }).waitFor();
    const modelsDir = path.join(home.stateDir, 'cairn', 'models');
    expect(fs.readdirSync(modelsDir).some((f) => f.endsWith('.gguf'))).toBe(false);
    files.release();

    const before = files.requests.length;
    await page.getByRole('button', { name: 'Download and use Qwen2.5 1.5B Instruct (Q4_K_M)' }).click();
    // Selected: the no-model panel gives way to the chat.
    await page.getByTestId('chat-no-model').waitFor({ state: 'detached', timeout: 60_000 });
    const file = path.join(modelsDir, 'qwen2.5-1.5b-instruct-q4_k_m.gguf');
    expect(fs.statSync(file).size).toBe(size);
    const config = fs.readFileSync(path.join(home.stateDir, 'cairn.json'), 'utf8');
    expect(config).toContain(file);
    // Resumed: the second try asked for parts (Range requests) into the kept partial file.
    expect(rangeRequests(files, before)).toBeGreaterThan(0);
    await screenshot(page, 'model-download-selected');
    expect(errors).toEqual([]);
    await page.context().close();
  }, 180_000);

  it('offline: says so at once instead of retrying', async () => {
    await served?.close();
    const home = freshHome();
    // A port nothing listens on: the connection is refused, as with no network.
    served = await serveHost(home, { modelDownloadBaseUrl: 'http://127.0.0.1:9' });
    const { page, errors } = await newPage(browser, 800, 'dark');
    await page.goto(`${served.server.openUrl}#/settings`);
    const recommended = page.getByTestId('recommended-models');
    await recommended.waitFor();
    await recommended.getByRole('button', { name: 'Download and use Llama 3.2 3B Instruct (Q4_K_M)' }).click();
    const alert = recommended.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toMatch(/you may be offline; nothing was downloaded/);
    await screenshot(page, 'model-download-offline-800-dark');
    expect(errors).toEqual([]);
    await page.context().close();
  }, 60_000);
});
