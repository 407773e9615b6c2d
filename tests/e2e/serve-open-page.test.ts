/**
 * The private page `cairn serve --open` hands the browser (electron/server/open-page.ts; the
 * token stays off the command line) brings real Chromium to the working UI: the file:// page
 * forwards to the tokened URL, the UI takes the token and drops it from the address.
 */
import { pathToFileURL } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeOpenPage } from '../../electron/server/open-page';
import { launchChromium, openPage } from '../helpers/browser';
import { serveStateDir, type Served } from '../helpers/server';
import { tmpDir } from '../helpers/tmp';

let browser: Browser;
let served: Served | undefined;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await served?.close();
  await browser?.close();
});

describe('the private open page', () => {
  it('leads Chromium from file:// to the UI, which then holds the session without the token in its address', async () => {
    const stateDir = tmpDir();
    served = await serveStateDir(stateDir);
    const page = writeOpenPage(`${served.server.openUrl}#/status`, { CAIRN_DATA_DIR: tmpDir('cairn-open-data-') });
    try {
      expect(page.href).toBe(pathToFileURL(page.file).href);
      const { page: tab, errors } = await openPage(browser, page.href);
      await tab.getByTestId('state-dir').waitFor();
      expect(await tab.getByTestId('state-dir').textContent()).toBe(stateDir);
      expect(tab.url()).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);
      expect(tab.url()).not.toContain('token=');
      expect(errors).toEqual([]);
      await tab.close();
    } finally {
      page.remove();
    }
  });
});
