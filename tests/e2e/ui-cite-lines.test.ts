/**
 * Issue 14 item 12, in Chromium: any line of a memory file can be cited — a click picks a
 * line (source) or a block's lines (rendered), Shift+click extends the pick, and Copy
 * citation copies `path#Lx-Ly`; the browser UI offers "Copy path" (the absolute path) where
 * the desktop app opens the file in the editor or its folder.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { screenshot } from '../helpers/browser';
import { e2eEnv } from '../helpers/e2e-env';
import { clipboardPage } from '../helpers/clipboard-page';
import { seedMemory } from '../helpers/seed-memory';
import { writeTree } from '../helpers/tmp';

const NOTE = ['# Ops notes', '', 'Backups run nightly with restic.', '', '- NAS at /mnt/nas', '- port 8443', '', 'Paragraph one', 'spans two lines.', ''].join('\n');

const env = e2eEnv('cairn-e2e-cite-', (dir) => {
  const { workspace } = seedMemory(dir);
  writeTree(workspace, { 'memory/ops.md': NOTE });
  return workspace;
});

describe('Citing lines of a memory file', () => {
  it('picks lines by click and Shift+click, copies path#Lx-Ly and the absolute path', async () => {
    const { page, errors, close } = await clipboardPage(env.browser);
    await page.goto(`${env.served.server.openUrl}#/memory?path=memory%2Fops.md`);
    const head = page.getByTestId('memory-path');
    await head.filter({ hasText: 'memory/ops.md' }).waitFor();

    // Source view: one line, then a range.
    await page.getByRole('button', { name: 'Source' }).click();
    const source = page.getByTestId('memory-source');
    await source.locator('[data-line="3"]').click();
    await head.filter({ hasText: /^memory\/ops\.md#L3-L3$/ }).waitFor();
    await source.locator('[data-line="6"]').click({ modifiers: ['Shift'] });
    await head.filter({ hasText: /^memory\/ops\.md#L3-L6$/ }).waitFor();
    await page.getByRole('button', { name: 'Copy citation' }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('memory/ops.md#L3-L6');

    // Rendered view: a block cites all its source lines.
    await page.getByRole('button', { name: 'Rendered' }).click();
    await page.getByTestId('memory-rendered').getByText('Paragraph one').click();
    await head.filter({ hasText: /^memory\/ops\.md#L8-L9$/ }).waitFor();
    await screenshot(page, 'memory-cite-lines');

    // The browser UI cannot open the system editor: it copies the absolute path instead.
    expect(await page.getByRole('button', { name: 'Open in editor' }).count()).toBe(0);
    await page.getByRole('button', { name: 'Copy path' }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(path.join(env.seeded, 'memory', 'ops.md'));
    expect(errors).toEqual([]);
    await close();
  });
});
