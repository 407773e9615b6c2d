/**
 * Issue 14 item 12, in Chromium: find inside a (virtualised) session jumps to each match,
 * "Copy citation" puts `path#Lx-Ly` on the clipboard from a hit and from the memory view, and
 * the search box offers recent searches when empty.
 */
import { describe, expect, it } from 'vitest';
import { screenshot } from '../helpers/browser';
import { e2eEnv } from '../helpers/e2e-env';
import { seedMemory } from '../helpers/seed-memory';
import { seedSessions } from '../helpers/seed-sessions';
import { FakeEmbedder } from '../../testkit/fake-embedder';

const env = e2eEnv(
  'cairn-e2e-find-',
  (dir) => {
    const s = seedSessions(dir);
    seedMemory(dir);
    return s.compacted;
  },
  { createEmbedder: async () => new FakeEmbedder() },
);

async function newPage() {
  const ctx = await env.browser.newContext({ viewport: { width: 1280, height: 800 }, permissions: ['clipboard-read', 'clipboard-write'] });
  const page = await ctx.newPage();
  const errors: string[] = [];
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  page.on('pageerror', (e) => errors.push(e.message));
  return { page, errors };
}

describe('What Obsidian / VS Code users reach for', () => {
  it('finds inside a virtualised session and jumps to each match', async () => {
    const { page, errors } = await newPage();
    await page.goto(`${env.served.server.openUrl}#/sessions/${env.seeded.sessionId}/timeline`);
    await page.getByTestId('timeline').and(page.locator(`[data-loaded]`)).waitFor();
    // Not rendered at the top: the timeline holds only the rows in view.
    expect(await page.getByTestId('timeline').getByText('aclitem', { exact: false }).count()).toBe(0);
    const box = page.getByRole('searchbox', { name: 'Find in this session' });
    await box.fill('aclitem');
    const count = page.getByTestId('find-count');
    await count.filter({ hasText: /– of \d+/ }).waitFor();
    await box.press('Enter');
    await count.filter({ hasText: /^1 of \d+$/ }).waitFor();
    await page.getByTestId('timeline').getByText('aclitem', { exact: false }).first().waitFor();
    await box.press('Enter');
    await count.filter({ hasText: /^2 of \d+$/ }).waitFor();
    await box.press('Shift+Enter');
    await count.filter({ hasText: /^1 of \d+$/ }).waitFor();
    await screenshot(page, 'session-find');
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('copies citations from a hit and from the memory view; offers recent searches', async () => {
    const { page, errors } = await newPage();
    await page.goto(`${env.served.server.openUrl}#/search`);
    const box = page.getByRole('searchbox', { name: 'Search memory' });
    await box.fill('restic backups');
    const first = page.getByTestId('search-result').first();
    await first.waitFor();
    const cite = ((await first.locator('.result-cite').first().textContent()) ?? '').trim();
    await first.getByRole('button', { name: `Copy citation ${cite}` }).click();
    await first.getByRole('button', { name: `Copied ${cite}` }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(cite);

    // Recent searches: clear the box and the query is offered.
    await box.fill('');
    const recent = page.getByRole('navigation', { name: 'Recent searches' });
    await recent.getByRole('button', { name: 'restic backups' }).click();
    await page.getByTestId('search-result').first().waitFor();

    // From the memory view, with the cited range.
    await page.getByTestId('search-result').first().locator('.result-cite').first().click();
    await page.getByTestId('memory-path').filter({ hasText: cite }).waitFor();
    await page.getByRole('button', { name: 'Copy citation' }).click();
    await page.getByRole('button', { name: `Copied ${cite}` }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(cite);
    expect(errors).toEqual([]);
    await page.context().close();
  });
});
