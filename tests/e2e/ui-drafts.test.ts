/**
 * Issue 14 item 1, in Chromium over cairn serve: an unsaved memory edit survives leaving the
 * page (rail), opening another file, Esc and a reload; the other pages warn that it is kept;
 * closing the window asks first (while a draft exists); saving clears the draft. A file changed on disk while the
 * draft waited is flagged when the draft comes back, and saving does not overwrite it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openPage, screenshot } from '../helpers/browser';
import { e2eEnv } from '../helpers/e2e-env';
import { seedMemory } from '../helpers/seed-memory';

const env = e2eEnv('cairn-e2e-drafts-', (dir) => seedMemory(dir));

describe('Memory edits are never lost', () => {
  it('keeps the draft across the rail, another file, Esc and a reload; warns; saving clears it', async () => {
    const { page, errors } = await openPage(env.browser, `${env.served.server.openUrl}#/memory?path=MEMORY.md`);
    await page.getByTestId('memory-rendered').getByText('Standing decisions').waitFor();
    await page.getByRole('button', { name: 'Edit' }).click();
    const editor = page.getByRole('textbox', { name: 'Edit MEMORY.md' });
    await editor.press('Control+End');
    await editor.pressSequentially('\n- draft: otter-quasar\n');

    // Another page: the edit is kept, and that page says so.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: /Sessions/ }).click();
    const banner = page.getByTestId('drafts-banner');
    await banner.waitFor();
    expect(await banner.textContent()).toContain('Unsaved edit in MEMORY.md');
    expect(await page.getByTestId('rail-unsaved').count()).toBe(1);
    await screenshot(page, 'drafts-banner');
    // Back through the rail: the editor is open again on the draft.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: /Memory/ }).click();
    await editor.waitFor();
    expect(await editor.inputValue()).toContain('otter-quasar');

    // Another file, then back through the file list.
    await page.getByRole('navigation', { name: 'Memory files' }).getByRole('link', { name: /\d{4}-\d{2}-\d{2}/ }).first().click();
    await page.getByTestId('memory-path').filter({ hasText: /memory\/\d{4}-\d{2}-\d{2}\.md/ }).waitFor();
    expect(await editor.count()).toBe(0);
    await page.getByRole('navigation', { name: 'Memory files' }).getByRole('link', { name: 'MEMORY.md' }).click();
    await editor.waitFor();
    expect(await editor.inputValue()).toContain('otter-quasar');
    await page.getByTestId('draft-restored').waitFor();

    // Esc asks before discarding; "Keep editing" keeps the text.
    await editor.press('Escape');
    const ask = page.getByRole('alertdialog', { name: 'Discard unsaved changes?' });
    await ask.waitFor();
    await ask.getByRole('button', { name: 'Keep editing' }).click();
    expect(await editor.inputValue()).toContain('otter-quasar');

    // A reload restores it (sessionStorage).
    await page.reload();
    await editor.waitFor();
    expect(await editor.inputValue()).toContain('otter-quasar');

    // Saving writes it and clears the draft: no banner elsewhere.
    await editor.press('Control+S');
    await page.getByTestId('memory-rendered').getByText('otter-quasar').waitFor();
    expect(fs.readFileSync(path.join(env.seeded.workspace, 'MEMORY.md'), 'utf8')).toContain('draft: otter-quasar');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: /Search/ }).click();
    await page.getByRole('searchbox', { name: 'Search memory' }).waitFor();
    expect(await page.getByTestId('drafts-banner').count()).toBe(0);
    expect(await page.getByTestId('rail-unsaved').count()).toBe(0);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('asks before closing the window with a draft, and flags a file changed on disk meanwhile', async () => {
    const { page, errors } = await openPage(env.browser, `${env.served.server.openUrl}#/memory?path=MEMORY.md`);
    await page.getByTestId('memory-rendered').getByText('Standing decisions').waitFor();
    await page.getByRole('button', { name: 'Edit' }).click();
    const editor = page.getByRole('textbox', { name: 'Edit MEMORY.md' });
    await editor.press('Control+End');
    await editor.pressSequentially('\n- mine: heron-vortex\n');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: /Status/ }).click();
    await page.getByTestId('drafts-banner').waitFor();

    // Someone else writes the file while the draft waits.
    const file = path.join(env.seeded.workspace, 'MEMORY.md');
    fs.writeFileSync(file, `${fs.readFileSync(file, 'utf8')}\n- theirs: lynx-aurora\n`);
    fs.utimesSync(file, new Date(), new Date(Date.now() + 5000));
    await page.getByTestId('drafts-banner').getByRole('link', { name: /Return to it/ }).click();
    await editor.waitFor();
    expect(await editor.inputValue()).toContain('heron-vortex');
    await page.getByRole('alert').filter({ hasText: /changed on disk/ }).waitFor();
    // Save refuses to overwrite the other writer.
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByRole('alert').filter({ hasText: /Not saved/ }).waitFor();
    expect(fs.readFileSync(file, 'utf8')).toContain('lynx-aurora');
    expect(fs.readFileSync(file, 'utf8')).not.toContain('heron-vortex');

    // Closing the window asks: the beforeunload handler cancels the unload while a draft is
    // kept. (Headless Chromium does not raise the native dialog, so the event is dispatched.)
    const cancelsUnload = () =>
      page.evaluate(() => {
        const ev = new Event('beforeunload', { cancelable: true });
        window.dispatchEvent(ev);
        return ev.defaultPrevented;
      });
    expect(await cancelsUnload()).toBe(true);
    await page.getByRole('button', { name: 'Cancel', exact: true }).click();
    await page.getByRole('alertdialog', { name: 'Discard unsaved changes?' }).getByRole('button', { name: 'Discard changes' }).click();
    await page.getByRole('button', { name: 'Edit' }).waitFor();
    expect(await cancelsUnload()).toBe(false);
    expect(errors).toEqual([]);
    await page.close();
  });
});
