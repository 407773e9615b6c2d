/**
 * Issue 14 item 13, in Chromium: the Status page shows each doctor check as it completes
 * instead of "Checking…" until the slowest is done. The QMD check runs a real child (the
 * configured `qmd` command) that blocks on a FIFO until the test writes to it, so the other
 * checks are shown while one is still running — no timers.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { launchChromium, openPage, screenshot } from '../helpers/browser';
import { serveStateDir } from '../helpers/server';
import { tmpDir, writeTree } from '../helpers/tmp';

describe('Status page', () => {
  it('shows the checks one by one while a slow one runs', async () => {
    const bin = tmpDir('cairn-e2e-qmd-gate-');
    const fifo = path.join(bin, 'gate');
    execFileSync('mkfifo', [fifo]);
    const qmd = path.join(bin, 'qmd');
    fs.writeFileSync(qmd, `#!/bin/sh\nread line < '${fifo}'\necho "qmd 9.8.7"\n`, { mode: 0o755 });
    const stateDir = writeTree(tmpDir(), { 'cairn/state.json': '{}', 'cairn.json': JSON.stringify({ memory: { backend: 'qmd', qmd: { command: qmd } } }) });
    const served = await serveStateDir(stateDir);
    const browser = await launchChromium();
    try {
      const { page, errors } = await openPage(browser, `${served.server.openUrl}#/status`);
      // The fast checks are listed while the QMD check is still running.
      await page.locator('[data-check="sqlite"]').waitFor();
      await page.locator('[data-check="state-dir"]').waitFor();
      expect(await page.getByTestId('checks-progress').isVisible()).toBe(true);
      expect(await page.locator('[data-check="qmd"]').count()).toBe(0);
      expect(await page.getByTestId('state-dir').textContent()).toBe(stateDir);
      await screenshot(page, 'status-checks-streaming');
      // Release the child: the last check arrives and the run ends.
      fs.writeFileSync(fifo, 'go\n');
      await page.locator('[data-check="qmd"]').filter({ hasText: 'qmd 9.8.7' }).waitFor();
      await page.getByTestId('checks-progress').waitFor({ state: 'detached' });
      expect(await page.getByRole('button', { name: 'Re-run checks' }).isEnabled()).toBe(true);
      expect(errors).toEqual([]);
      await page.close();
    } finally {
      await browser.close();
      await served.close();
    }
  });
});
