/**
 * The dreaming views in Chromium over `cairn serve`, on the state dir the real OpenClaw
 * 2026.9.6 wrote (tests/fixtures/openclaw-2026.9.6-dreaming): Memory → MEMORY.md history
 * opens on the sweep's promotion, with its diff against dreaming's saved copy and its source
 * (one click opens the daily-note lines); Memory → Dreaming reads DREAMS.md; a daily note's
 * managed blocks are marked as dreaming's, and the phase reports are not listed as daily notes. OpenClaw's dir is byte-identical afterwards.
 */
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { openPage, screenshot } from '../helpers/browser';
import { axe, newPage } from '../helpers/axe';
import { e2eEnv } from '../helpers/e2e-env';
import { treeOf } from '../helpers/openclaw-state';
import { OC_DREAMING_STATE_DIR } from '../helpers/openclaw-dreaming';

const env = e2eEnv('cairn-e2e-ocdream-', (stateDir) => {
  fs.cpSync(OC_DREAMING_STATE_DIR, stateDir, { recursive: true });
  return treeOf(stateDir);
});

describe("MEMORY.md's history and dreaming's reports in the window", () => {
  it('shows a promotion with its diff and its source, and the source opens at its lines', async () => {
    const { page, errors } = await openPage(env.browser, `${env.served.server.openUrl}#/memory?view=history`);
    const promo = page.getByTestId('promotion').filter({ hasText: 'Glacier' });
    await promo.waitFor();
    const diff = page.getByTestId('history-diff');
    expect(await diff.locator('.diff-add').filter({ hasText: 'Glacier' }).count()).toBe(1);
    expect(await promo.getByTestId('evidence').textContent()).toContain('4 times by 4 distinct queries');
    expect(await promo.getByTestId('evidence').textContent()).toContain('d1-backups');
    const waiting = page.getByTestId('waiting').filter({ hasText: 'memory/2026-12-02.md#L1-L4' });
    expect(await waiting.textContent()).toContain('Found by 1 distinct query; dreaming needs 3');
    await screenshot(page, 'memory-history-promotion');
    const source = promo.getByTestId('promotion-source');
    expect(await source.textContent()).toBe('memory/2026-11-30.md#L1-L4');
    await source.click();
    await page.getByTestId('memory-rendered').locator('.md-hl').first().waitFor();
    expect(await page.getByTestId('memory-rendered').locator('.md-hl').filter({ hasText: 'Glacier' }).count()).toBe(1);
    expect(errors).toEqual([]);
    await page.close();
    expect(treeOf(env.stateDir)).toEqual(env.seeded);
  });

  it("reads DREAMS.md and marks dreaming's blocks in a daily note", async () => {
    const { page, errors } = await openPage(env.browser, `${env.served.server.openUrl}#/memory?view=dreams`);
    await page.getByRole('button', { name: 'Dream Diary (DREAMS.md)' }).click();
    await page.getByRole('heading', { name: 'Dream Diary' }).waitFor();
    await page.getByRole('link', { name: /2026-12-04\.md · Light Sleep/ }).click();
    const note = page.getByTestId('dreaming-blocks');
    await note.waitFor();
    expect(await note.textContent()).toContain('Written by dreaming, not by you');
    expect(await page.locator('.md-dreaming').count()).toBeGreaterThan(0);
    // The phase reports are listed as dreaming's, not among the daily notes.
    expect(await page.getByRole('list', { name: 'Daily notes by date' }).getByText('2026-12-04').count()).toBe(1);
    expect(await page.getByRole('list', { name: "Dreaming's phase reports" }).textContent()).toContain('light/2026-12-04.md');
    await screenshot(page, 'memory-dreaming-blocks');
    expect(errors).toEqual([]);
    await page.close();
    expect(treeOf(env.stateDir)).toEqual(env.seeded);
  });

  it('the history and dreaming views have no serious axe violations, light and dark', async () => {
    for (const theme of ['light', 'dark'] as const) {
      const { page, errors } = await newPage(env.browser, 1280, theme);
      await page.goto(`${env.served.server.openUrl}#/memory?view=history`);
      await page.getByTestId('promotion').first().waitFor();
      expect(await axe(page), theme).toEqual([]);
      await page.goto(`${env.served.server.openUrl}#/memory?view=dreams`);
      await page.getByRole('button', { name: 'Dream Diary (DREAMS.md)' }).click();
      await page.getByRole('heading', { name: 'Dream Diary' }).waitFor();
      expect(await axe(page), theme).toEqual([]);
      expect(errors).toEqual([]);
      await page.context().close();
    }
    expect(treeOf(env.stateDir)).toEqual(env.seeded);
  });
});
