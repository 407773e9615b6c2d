/**
 * Settings in Chromium over cairn serve: the generated form validates as you type (the
 * engine's message next to the field), saves to cairn.json, resets to the default, and the
 * read-only switch changes the state dir's access.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchChromium, openPage, screenshot } from '../helpers/browser';
import { serveStateDir, type Served } from '../helpers/server';
import { ScriptedLlm } from '../helpers/scripted-llm';

let browser: Browser;
let served: Served;
let stateDir: string;
beforeAll(async () => {
  stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-e2e-settings-'));
  browser = await launchChromium();
  served = await serveStateDir(stateDir);
});
afterAll(async () => {
  await served?.close();
  await browser?.close();
  fs.rmSync(stateDir, { recursive: true, force: true });
});

describe('Settings page', () => {
  it('validates a value as it is typed, saves it, and resets it to the default', async () => {
    const { page, errors } = await openPage(browser, `${served.server.openUrl}#/settings`);
    const field = page.locator('[data-key="agents.defaults.contextPruning.softTrimRatio"]');
    await field.waitFor();
    expect(await field.textContent()).toContain('default 0.3');
    const input = field.getByRole('textbox');
    await input.fill('1.5');
    const alert = field.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toMatch(/softTrimRatio.*(1|less)/i);
    await input.fill('0.4');
    await alert.waitFor({ state: 'detached' });
    await field.getByRole('button', { name: 'Save agents.defaults.contextPruning.softTrimRatio' }).click();
    await field.getByText('Saved').waitFor();
    expect(fs.readFileSync(path.join(stateDir, 'cairn.json'), 'utf8')).toMatch(/softTrimRatio: 0\.4/);
    // "Saved" comes with the write; "set in config" with the config read after it: wait for that.
    await field.locator('.cfg-help', { hasText: 'set in config' }).waitFor();
    await screenshot(page, 'settings');

    await field.getByRole('button', { name: /Reset .* to default/ }).click();
    await field.getByRole('button', { name: /Reset/ }).waitFor({ state: 'detached' });
    expect(await input.inputValue()).toBe('0.3');
    expect(fs.readFileSync(path.join(stateDir, 'cairn.json'), 'utf8')).not.toContain('softTrimRatio');

    // An enum is a select; a bad duration is refused with the engine's message.
    const ttl = page.locator('[data-key="agents.defaults.contextPruning.ttl"]');
    await ttl.getByRole('textbox').fill('soon');
    await ttl.getByRole('alert').waitFor();
    expect(await ttl.getByRole('alert').textContent()).toContain('duration');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('switches the state dir to read-only and back', async () => {
    const { page, errors } = await openPage(browser, `${served.server.openUrl}#/settings`);
    const sw = page.getByRole('checkbox', { name: /Allow Cairn to write/ });
    await sw.waitFor();
    expect(await sw.isChecked()).toBe(true);
    await sw.uncheck();
    await page.getByRole('status').filter({ hasText: 'Read-only' }).waitFor();
    expect(JSON.parse(fs.readFileSync(path.join(stateDir, 'cairn', 'state.json'), 'utf8')).writable).toBe(false);
    await sw.check();
    await page.getByRole('status').filter({ hasText: 'Read-only' }).waitFor({ state: 'detached' });
    expect(errors).toEqual([]);
    await page.close();
  });

  it('tests the chat model connection and shows the reply', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-e2e-settings-llm-'));
    const llm = new ScriptedLlm(() => ({ text: 'pong' }));
    const own = await serveStateDir(dir, { createLlm: () => llm });
    try {
      const { page, errors } = await openPage(browser, `${own.server.openUrl}#/settings`);
      const status = page.getByTestId('llm-status');
      await status.waitFor();
      expect(await status.textContent()).toContain('scripted');
      await page.getByRole('button', { name: 'Test connection' }).click();
      const result = page.getByTestId('llm-test-result');
      await result.waitFor();
      expect(await result.textContent()).toMatch(/^Connected in \d+ ms: .*pong/);
      expect(errors).toEqual([]);
      await page.close();
    } finally {
      await own.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
