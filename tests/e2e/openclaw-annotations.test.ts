/**
 * OpenClaw 2026.9's annotations, USER.md and cold storage in Chromium over `cairn serve`, on
 * the state dir the real OpenClaw 2026.9.6 wrote (tests/fixtures/openclaw-2026.9.6-dreaming):
 * a trigger chip on a result filters the search to the entries carrying it; USER.md is found
 * by search; a session whose history OpenClaw moved to cold storage shows its messages; the
 * Memory view shows the chips on MEMORY.md's entries; a result and an entry OpenClaw recorded
 * a provenance for show it. OpenClaw's dir is byte-identical after each.
 */
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { openPage, screenshot } from '../helpers/browser';
import { e2eEnv } from '../helpers/e2e-env';
import { treeOf } from '../helpers/openclaw-state';
import { OC_DREAMING_STATE_DIR } from '../helpers/openclaw-dreaming';

const env = e2eEnv('cairn-e2e-ocannot-', (stateDir) => {
  fs.cpSync(OC_DREAMING_STATE_DIR, stateDir, { recursive: true });
  return treeOf(stateDir);
});

describe("OpenClaw's annotations, USER.md and cold storage in the window", () => {
  it('a trigger chip on a result filters the search to the entries carrying that trigger', async () => {
    const { page, errors } = await openPage(env.browser, `${env.served.server.openUrl}#/search`);
    await page.getByRole('searchbox', { name: 'Search memory' }).fill('gateway loopback');
    const hit = page.getByTestId('search-result').filter({ hasText: 'loopback' }).first();
    await hit.waitFor();
    const chip = hit.getByTestId('annotation-chip').filter({ hasText: 'gateway setup' });
    expect(await hit.getByTestId('annotation-chip').allTextContents()).toEqual(expect.arrayContaining(['⚡ gateway setup', '⚡ network safety', '★ 9']));
    await chip.click();
    await page.getByTestId('filter-trigger').and(page.locator('[value="gateway setup"]')).waitFor();
    await page.waitForFunction(() => {
      const items = [...document.querySelectorAll('[data-testid="search-result"]')];
      return items.length > 0 && items.every((li) => li.textContent?.includes('gateway setup'));
    });
    const cites = await page.getByTestId('search-result').locator('.result-cite').allTextContents();
    expect(cites.every((c) => c.startsWith('MEMORY.md#'))).toBe(true);
    await screenshot(page, 'search-trigger-chip');
    expect(errors).toEqual([]);
    await page.close();
    expect(treeOf(env.stateDir)).toEqual(env.seeded);
  });

  it('USER.md is found by search and shows its annotations in Memory', async () => {
    const { page, errors } = await openPage(env.browser, `${env.served.server.openUrl}#/search`);
    await page.getByRole('searchbox', { name: 'Search memory' }).fill('short answers with the command first');
    const hit = page.getByTestId('search-result').filter({ hasText: 'command first' }).first();
    await hit.waitFor();
    expect(await hit.locator('.result-cite').textContent()).toMatch(/^USER\.md#L\d+-L\d+$/);
    await hit.locator('.result-cite').click();
    const rendered = page.getByTestId('memory-rendered');
    await rendered.getByTestId('annotation-chip').filter({ hasText: 'date format' }).waitFor();
    expect(await rendered.getByTestId('annotation-chip').allTextContents()).toEqual(['⚡ date format', '⚡ calendar', '★ 6']);
    await screenshot(page, 'memory-user-md-chips');
    expect(errors).toEqual([]);
    await page.close();
    expect(treeOf(env.stateDir)).toEqual(env.seeded);
  });

  it('a result from an entry OpenClaw recorded shows its provenance, and so does the entry in Memory', async () => {
    const { page, errors } = await openPage(env.browser, `${env.served.server.openUrl}#/search`);
    await page.getByRole('searchbox', { name: 'Search memory' }).fill('coffee order flat white');
    const hit = page.getByTestId('search-result').filter({ hasText: 'Coffee order' }).first();
    await hit.waitFor();
    const label = hit.getByTestId('provenance-label');
    expect(await label.textContent()).toBe('◆ agent');
    expect(await label.getAttribute('title')).toMatch(/^OpenClaw’s provenance: Derived by the agent from the owner’s content · observed 2026-/u);
    await hit.locator('.result-cite').click();
    const entry = page.getByTestId('memory-rendered').locator('li', { hasText: 'Coffee order' });
    await entry.getByTestId('provenance-label').waitFor();
    expect(await entry.getByTestId('provenance-label').textContent()).toBe('◆ agent');
    await screenshot(page, 'memory-provenance');
    expect(errors).toEqual([]);
    await page.close();
    expect(treeOf(env.stateDir)).toEqual(env.seeded);
  });

  it('a session whose history is in cold storage shows its messages', async () => {
    const { page, errors } = await openPage(env.browser, `${env.served.server.openUrl}#/sessions/d1-backups/timeline`);
    const timeline = page.getByTestId('timeline');
    await timeline.getByText(/Where do the backups go again\?/).first().waitFor();
    expect(Number(await timeline.getAttribute('data-loaded'))).toBeGreaterThan(5);
    await screenshot(page, 'session-cold-archive');
    expect(errors).toEqual([]);
    await page.close();
    expect(treeOf(env.stateDir)).toEqual(env.seeded);
  });
});
