/**
 * Memory browser and Search in Chromium over cairn serve, on the seeded sample workspace:
 * Ctrl+K from another page, search-as-you-type with marked terms and a score breakdown, a
 * citation that opens the file at its lines, an edit that search then finds, a conflict
 * when the file changed on disk, live refresh, and the read-only state.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { openPage, screenshot } from '../helpers/browser';
import { e2eEnv } from '../helpers/e2e-env';
import { seedMemory } from '../helpers/seed-memory';
import { FakeEmbedder } from '../../testkit/fake-embedder';

// A deterministic embedder through EngineDeps: hybrid mode without a model download.
const env = e2eEnv('cairn-e2e-memory-', (dir) => seedMemory(dir).workspace, { createEmbedder: async () => new FakeEmbedder() });

async function search(page: Page, q: string): Promise<void> {
  const box = page.getByRole('searchbox', { name: 'Search memory' });
  await box.fill(q);
  await page.getByTestId('search-meta').filter({ hasText: /result/ }).waitFor();
}

describe('Search and the memory browser', () => {
  it('Ctrl+K searches from anywhere; results mark the terms, expand scores, and open the cited lines', async () => {
    const { page, errors } = await openPage(env.browser, `${env.served.server.openUrl}#/memory`);
    await page.getByRole('navigation', { name: 'Memory files' }).waitFor();
    await page.keyboard.press('Control+K');
    const box = page.getByRole('searchbox', { name: 'Search memory' });
    await box.waitFor();
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('search-input');

    await page.keyboard.type('restic backups NAS');
    const first = page.getByTestId('search-result').first();
    await first.waitFor();
    expect(await page.getByTestId('search-meta').textContent()).toMatch(/hybrid.*fake/);
    expect(await first.locator('mark').count()).toBeGreaterThan(0);
    expect((await first.locator('mark').allTextContents()).map((t) => t.toLowerCase())).toContain('restic');
    await first.getByRole('button', { name: /Score breakdown/ }).click();
    const breakdown = first.getByTestId('score-breakdown');
    await breakdown.waitFor();
    expect(await breakdown.locator('[role="meter"]').count()).toBe(6);
    expect(await breakdown.textContent()).toMatch(/vector.*text.*merged.*decay.*MMR rank/s);
    await screenshot(page, 'search');

    // The citation opens the memory browser at those lines, highlighted.
    const cite = (await first.locator('.result-cite').textContent()) ?? '';
    const m = /^(.+)#L(\d+)-L(\d+)$/.exec(cite);
    expect(m).not.toBeNull();
    await first.locator('.result-cite').click();
    await page.getByTestId('memory-path').filter({ hasText: cite }).waitFor();
    await page.locator('.md-hl').first().waitFor();
    // The highlighted rendered text is the cited note's, with the searched word in it.
    expect((await page.locator('.md-hl').allTextContents()).join(' ').toLowerCase()).toContain('restic');
    await page.getByRole('button', { name: 'Source' }).click();
    const hl = page.locator('.src-hl');
    // Every highlighted line is inside the cited range (a range may end on the final newline).
    const lines = (await hl.evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-line'))))) as number[];
    expect(lines.length).toBeGreaterThan(0);
    expect(Math.max(...lines)).toBeLessThanOrEqual(Number(m?.[3]));
    expect(await hl.first().getAttribute('data-line')).toBe(m?.[2]);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('shows MEMORY.md, the daily-notes calendar, and refreshes a file changed on disk', async () => {
    const { page, errors } = await openPage(env.browser, `${env.served.server.openUrl}#/memory`);
    await page.getByTestId('memory-path').filter({ hasText: 'MEMORY.md' }).waitFor();
    await page.getByTestId('memory-rendered').getByText('Standing decisions').waitFor();
    const cal = page.getByLabel('Daily notes calendar');
    const days = cal.getByRole('link', { name: /Daily note \d{4}-\d{2}-\d{2}/ });
    // The calendar loads the days on its own, after MEMORY.md shows: wait for them.
    await days.first().waitFor();
    await days.last().click();
    await page.getByTestId('memory-path').filter({ hasText: /memory\/\d{4}-\d{2}-\d{2}\.md/ }).waitFor();
    await screenshot(page, 'memory');

    // Live refresh: the watcher reports the change; the open file re-reads without a click.
    const rel = ((await page.getByTestId('memory-path').textContent()) ?? '').trim();
    fs.appendFileSync(path.join(env.seeded, rel), '\n- Added outside Cairn: ferret-lighthouse.\n\n<b onclick="x()">raw-html</b>\n');
    await page.getByTestId('memory-rendered').getByText('ferret-lighthouse').waitFor();
    // Raw HTML in a note is never rendered as markup.
    expect(await page.getByTestId('memory-rendered').locator('b').count()).toBe(0);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('edits MEMORY.md with an atomic save, finds the edit by search, and reports a conflict', async () => {
    const { page, errors } = await openPage(env.browser, `${env.served.server.openUrl}#/memory?path=MEMORY.md`);
    await page.getByTestId('memory-rendered').getByText('Standing decisions').waitFor();
    await page.getByRole('button', { name: 'Edit' }).click();
    const editor = page.getByRole('textbox', { name: 'Edit MEMORY.md' });
    await editor.waitFor();
    await editor.press('Control+End');
    await editor.pressSequentially('\n- Decision: the canary listens on port 48613 (zebra-kumquat).\n');
    await editor.press('Control+S');
    await page.getByTestId('memory-rendered').getByText('zebra-kumquat').waitFor();
    expect(fs.readFileSync(path.join(env.seeded, 'MEMORY.md'), 'utf8')).toContain('port 48613 (zebra-kumquat)');

    await page.keyboard.press('Control+K');
    await search(page, 'zebra-kumquat');
    const hit = page.getByTestId('search-result').filter({ hasText: 'zebra-kumquat' }).first();
    await hit.waitFor();
    expect(await hit.locator('.result-cite').textContent()).toMatch(/^MEMORY\.md#L\d+-L\d+$/);

    // A conflict: the file changes on disk while it is being edited.
    await page.goto(`${env.served.server.openUrl}#/memory?path=MEMORY.md`);
    await page.getByRole('button', { name: 'Edit' }).click();
    await editor.waitFor();
    await editor.press('Control+End');
    await editor.pressSequentially('\n- my edit\n');
    const file = path.join(env.seeded, 'MEMORY.md');
    fs.writeFileSync(file, `${fs.readFileSync(file, 'utf8')}\n- someone else's edit\n`);
    fs.utimesSync(file, new Date(), new Date(Date.now() + 5000));
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    const alert = page.getByRole('alert').filter({ hasText: /changed on disk/ });
    await alert.waitFor();
    expect(fs.readFileSync(file, 'utf8')).not.toContain('my edit');
    await alert.getByRole('button', { name: /Discard my edit and reload/ }).click();
    await page.getByTestId('memory-rendered').getByText("someone else's edit").waitFor();
    expect(errors).toEqual([]);
    await page.close();
  });

  it('shows the read-only state and disables editing', async () => {
    await env.served.engine.dispatcher.dispatch('state.setWritable', { writable: false });
    const { page, errors } = await openPage(env.browser, `${env.served.server.openUrl}#/memory?path=MEMORY.md`);
    await page.getByRole('note').filter({ hasText: 'Read-only' }).waitFor();
    expect(await page.getByRole('button', { name: 'Edit' }).isDisabled()).toBe(true);
    await env.served.engine.dispatcher.dispatch('state.setWritable', { writable: true });
    expect(errors).toEqual([]);
    await page.close();
  });
});
