/**
 * Issue 30 item 6, the Status page of an OpenClaw state dir in Chromium over `cairn serve`:
 * the OpenClaw section says in plain words what connecting adds (recall before every prompt,
 * Cairn behind OpenClaw's own memory_search), that nothing of OpenClaw is switched off, and
 * how to undo; Connect and Undo each show the exact change first, and Undo puts openclaw.json
 * back byte for byte. Cairn's backup goes to its own data dir, never OpenClaw's. A yes to a
 * change that is stale by then (issue 38: the file was edited meanwhile) writes nothing and
 * shows the new change.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openPage, screenshot } from '../helpers/browser';
import { e2eEnv } from '../helpers/e2e-env';
import { tmpDir, writeTree } from '../helpers/tmp';

const dataDir = tmpDir('cairn-e2e-data-');
// No `openclaw` on PATH: connect writes with its own comment-keeping edit.
const ENV = { HOME: tmpDir('cairn-e2e-home-'), CAIRN_DATA_DIR: dataDir, PATH: '/usr/bin:/bin' };
const CONFIG = `// my OpenClaw
{
  agents: { defaults: { model: { primary: 'fake/fake-1' } } }, // keep me
}
`;

const env = e2eEnv('cairn-e2e-occonnect-', (stateDir) => writeTree(stateDir, { 'openclaw.json': CONFIG, 'agents/main/sessions/sessions.json': '{}' }), { env: ENV });

describe('Status: the OpenClaw connection in plain words', () => {
  it('says what connecting adds and keeps, connects after showing the change, and undoes it byte for byte', async () => {
    const file = path.join(env.stateDir, 'openclaw.json');
    const { page, errors } = await openPage(env.browser, `${env.served.server.openUrl}#/status`);
    const section = page.getByTestId('openclaw-connection');
    await section.waitFor();
    expect(await page.getByTestId('openclaw-state').textContent()).toMatch(/^Not connected\./);
    const words = (await page.getByTestId('openclaw-words').textContent()) ?? '';
    expect(words).toContain('Before OpenClaw sends each of your messages to the model, Cairn searches your memory notes and past sessions');
    expect(words).toContain('memory_search (with corpus=all)');
    expect(words).toContain('Nothing of OpenClaw is switched off.');
    expect(words).toContain('dreaming');
    expect(words).toContain(`cairn connect openclaw --undo --state-dir ${env.stateDir}`);

    await section.getByRole('button', { name: 'Connect Cairn to OpenClaw' }).click();
    const ask = page.getByRole('group', { name: 'What connecting changes' });
    await ask.waitFor();
    expect(fs.readFileSync(file, 'utf8')).toBe(CONFIG);
    await ask.getByText('The exact change to openclaw.json').click();
    // The change loads Cairn's plugin; it denies nothing and leaves tool search alone.
    const diff = (await ask.locator('.connect-diff').textContent()) ?? '';
    expect(diff).toContain('plugins');
    expect(diff).not.toMatch(/deny|toolSearch/);
    await ask.getByRole('button', { name: 'Connect', exact: true }).click();
    await expect.poll(() => section.getAttribute('data-connected')).toBe('true');
    expect(await page.getByTestId('openclaw-state').textContent()).toMatch(/^Connected: Cairn recalls before every prompt of this OpenClaw, and nothing of OpenClaw is switched off\./);
    expect(fs.readFileSync(file, 'utf8')).not.toBe(CONFIG);
    // The checks are run again: doctor's OpenClaw check agrees.
    await expect.poll(() => page.locator('[data-check="openclaw-connection"] .badge').textContent()).toBe('ok');
    expect(fs.readdirSync(env.stateDir).sort()).toEqual(['agents', 'openclaw.json']);
    await screenshot(page, 'status-openclaw-connected');

    await section.getByRole('button', { name: 'Undo the connection…' }).click();
    const undo = page.getByRole('group', { name: 'What undoing changes' });
    await undo.waitFor();
    await undo.getByRole('button', { name: 'Undo', exact: true }).click();
    await expect.poll(() => section.getAttribute('data-connected')).toBe('false');
    expect(fs.readFileSync(file, 'utf8')).toBe(CONFIG);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('refuses a yes to a change that is stale by then (the file was edited meanwhile) and shows the new one', async () => {
    const file = path.join(env.stateDir, 'openclaw.json');
    const { page, errors } = await openPage(env.browser, `${env.served.server.openUrl}#/status`);
    const section = page.getByTestId('openclaw-connection');
    await section.getByRole('button', { name: 'Connect Cairn to OpenClaw' }).click();
    const ask = page.getByRole('group', { name: 'What connecting changes' });
    await ask.waitFor();
    // While the change is on screen, the user edits openclaw.json in an editor.
    const edited = CONFIG.replace("'fake/fake-1'", "'fake/edited'");
    fs.writeFileSync(file, edited);
    await ask.getByRole('button', { name: 'Connect', exact: true }).click();
    const alert = ask.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toContain('nothing was written');
    expect(fs.readFileSync(file, 'utf8')).toBe(edited);
    expect(await section.getAttribute('data-connected')).toBe('false');
    // The new change is open to read, with the edit in it; a yes to it connects.
    expect(await ask.locator('.connect-diff').textContent()).toContain('fake/edited');
    await screenshot(page, 'status-openclaw-connect-stale');
    await ask.getByRole('button', { name: 'Connect', exact: true }).click();
    await expect.poll(() => section.getAttribute('data-connected')).toBe('true');
    expect(fs.readFileSync(file, 'utf8')).toContain('fake/edited');
    expect(errors).toEqual([]);
    await page.close();
  });
});
