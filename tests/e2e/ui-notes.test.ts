/**
 * Issue 14 item 11, in Chromium: New / Rename / Delete note from the memory browser (asked in
 * place, atomic in the engine, gone when read-only), and a file changed on disk while editing
 * is flagged at once with a diff of the two versions, said once.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openPage, screenshot } from '../helpers/browser';
import { e2eEnv } from '../helpers/e2e-env';
import { seedMemory } from '../helpers/seed-memory';
import { FakeEmbedder } from '../../testkit/fake-embedder';

// The fake embedder keeps the index (and with it the file watcher) from waiting on a model.
const env = e2eEnv('cairn-e2e-notes-', (dir) => seedMemory(dir).workspace, { createEmbedder: async () => new FakeEmbedder() });

describe('Memory notes', () => {
  it('creates, renames and deletes a note', async () => {
    const { page, errors } = await openPage(env.browser, `${env.served.server.openUrl}#/memory?path=MEMORY.md`);
    await page.getByTestId('memory-rendered').waitFor();
    // MEMORY.md itself cannot be renamed or deleted.
    expect(await page.getByRole('button', { name: 'Delete' }).count()).toBe(0);
    await page.getByRole('button', { name: 'New note' }).click();
    await page.getByLabel('Name of the new note').fill('ideas');
    await page.getByRole('button', { name: 'Create' }).click();
    await page.getByTestId('memory-path').filter({ hasText: 'memory/ideas.md' }).waitFor();
    await page.getByRole('navigation', { name: 'Memory files' }).getByRole('link', { name: 'ideas.md' }).waitFor();
    expect(fs.readFileSync(path.join(env.seeded, 'memory/ideas.md'), 'utf8')).toBe('# ideas\n');

    // A name that exists is refused, nothing overwritten.
    await page.getByRole('button', { name: 'Rename' }).click();
    await page.getByLabel('New name').fill('MEMORY.md');
    await page.getByRole('button', { name: 'Rename', exact: true }).last().click();
    await page.getByRole('alert').filter({ hasText: /refused|exists/ }).waitFor();
    await page.getByLabel('New name').fill('memory/ideas-2026.md');
    await page.getByRole('button', { name: 'Rename', exact: true }).last().click();
    await page.getByTestId('memory-path').filter({ hasText: 'memory/ideas-2026.md' }).waitFor();
    expect(fs.existsSync(path.join(env.seeded, 'memory/ideas.md'))).toBe(false);
    expect(fs.existsSync(path.join(env.seeded, 'memory/ideas-2026.md'))).toBe(true);

    await page.getByRole('button', { name: 'Delete' }).click();
    const ask = page.getByRole('alertdialog', { name: 'Delete memory/ideas-2026.md?' });
    await ask.getByRole('button', { name: 'Delete the note' }).click();
    await page.getByTestId('memory-path').filter({ hasText: 'MEMORY.md' }).waitFor();
    expect(fs.existsSync(path.join(env.seeded, 'memory/ideas-2026.md'))).toBe(false);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('flags a file changed on disk while editing at once, with a diff, said once', async () => {
    const { page, errors } = await openPage(env.browser, `${env.served.server.openUrl}#/memory?path=MEMORY.md`);
    await page.getByTestId('memory-rendered').waitFor();
    await page.getByRole('button', { name: 'Edit' }).click();
    const editor = page.getByRole('textbox', { name: 'Edit MEMORY.md' });
    await editor.press('Control+End');
    await editor.pressSequentially('\n- mine: kestrel-quartz\n');
    const file = path.join(env.seeded, 'MEMORY.md');
    fs.writeFileSync(file, `${fs.readFileSync(file, 'utf8')}\n- theirs: otter-basalt\n`);
    // No Save click: the watcher's change event flags it.
    const alert = page.getByRole('alert').filter({ hasText: /changed on disk/ });
    await alert.waitFor();
    const diff = alert.getByTestId('conflict-diff');
    await diff.waitFor();
    expect(await diff.locator('.diff-add').allTextContents()).toEqual(expect.arrayContaining([expect.stringContaining('mine: kestrel-quartz')]));
    expect(await diff.locator('.diff-del').allTextContents()).toEqual(expect.arrayContaining([expect.stringContaining('theirs: otter-basalt')]));
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await alert.filter({ hasText: 'Not saved' }).waitFor();
    const text = (await alert.textContent()) ?? '';
    expect(text.match(/changed on disk/g)?.length).toBe(1);
    await screenshot(page, 'memory-conflict-diff');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('offers no note actions when read-only', async () => {
    await env.served.engine.dispatcher.dispatch('state.setWritable', { writable: false });
    const { page, errors } = await openPage(env.browser, `${env.served.server.openUrl}#/memory?path=MEMORY.md`);
    await page.getByRole('note').filter({ hasText: 'Read-only' }).waitFor();
    expect(await page.getByRole('button', { name: 'New note' }).count()).toBe(0);
    await env.served.engine.dispatcher.dispatch('state.setWritable', { writable: true });
    expect(errors).toEqual([]);
    await page.close();
  });
});
