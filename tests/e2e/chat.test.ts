/**
 * Chat in Chromium over cairn serve: without a model, a clear state linking to Settings and
 * `/compact` still compacting (deterministic extract); with a scripted model (injected through
 * EngineDeps.createLlm), a streamed reply with the tool call and its result inline.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchChromium, openPage, screenshot } from '../helpers/browser';
import { serveStateDir, type Served } from '../helpers/server';
import { seedMemory } from '../helpers/seed-memory';
import { seedSessions } from '../helpers/seed-sessions';
import { FakeEmbedder } from '../../testkit/fake-embedder';
import { ScriptedLlm, isFlushRequest, isSummaryRequest, type Handler } from '../helpers/scripted-llm';

let browser: Browser;
let served: Served | undefined;
const dirs: string[] = [];

let compactedId = '';
function seeded(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-e2e-chat-'));
  dirs.push(dir);
  compactedId = seedSessions(dir).compacted.sessionId;
  seedMemory(dir);
  return dir;
}

beforeAll(async () => {
  browser = await launchChromium();
});
afterEach(async () => {
  await served?.close();
  served = undefined;
});
afterAll(async () => {
  await browser?.close();
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

describe('Chat page', () => {
  it('without a model: says so, links to Settings, and /compact still compacts with the extract', { timeout: 150_000 }, async () => {
    const stateDir = seeded();
    served = await serveStateDir(stateDir, { createLlm: () => undefined, createEmbedder: async () => new FakeEmbedder() });
    const { page, errors } = await openPage(browser, `${served.server.openUrl}#/chat`);
    const state = page.getByTestId('chat-no-model');
    await state.waitFor();
    expect(await state.textContent()).toContain('No model configured');
    expect(await page.getByRole('button', { name: 'Send' }).isDisabled()).toBe(true);

    // Open the seeded session that has tool use and compactions: its history shows.
    const picker = page.getByRole('combobox', { name: 'Session' });
    await picker.locator(`option[value="${compactedId}"]`).waitFor({ state: 'attached' });
    await picker.selectOption(compactedId);
    await page.getByTestId('chat-tool-call').first().waitFor();
    expect(await page.getByTestId('chat-tool-result').count()).toBeGreaterThan(0);

    await page.getByRole('textbox', { name: 'Message' }).fill('/compact keep the migration ids');
    await page.getByRole('button', { name: 'Send' }).click();
    const marker = page.getByTestId('chat-marker-compaction').filter({ hasText: /extract/ }).last();
    // Compaction rewrites a large transcript: give a loaded machine time (no timing is asserted).
    await marker.waitFor({ timeout: 100_000 });
    expect(await marker.textContent()).toMatch(/Compaction \(manual\): [\d,]+ → [\d,]+ tokens/);
    await screenshot(page, 'chat-no-model');

    await state.getByRole('button', { name: 'Set up a provider in Settings' }).click();
    await page.getByRole('heading', { name: 'Settings' }).waitFor();
    expect(errors).toEqual([]);
    await page.close();
  });

  it('streams a reply with the tool call and result inline, in a new session', async () => {
    const stateDir = seeded();
    const handler: Handler = (req, call) => {
      if (isSummaryRequest(req)) return { text: '## Decisions\n- none' };
      if (isFlushRequest(req)) return { text: 'NO_REPLY' };
      if (call === 0) return { toolCalls: [{ name: 'memory_search', arguments: { query: 'restic backups NAS' } }] };
      return { text: 'Backups run nightly with **restic** to `/mnt/nas/backups/cairn`.', usage: { input: 900, output: 20, totalTokens: 920 } };
    };
    const llm = new ScriptedLlm(handler);
    served = await serveStateDir(stateDir, { createLlm: () => llm, createEmbedder: async () => new FakeEmbedder() });
    const { page, errors } = await openPage(browser, `${served.server.openUrl}#/chat`);
    await page.getByText(/Model: scripted/).waitFor();
    await page.getByRole('textbox', { name: 'Message' }).fill('Where do the backups go?');
    await page.keyboard.press('Enter');
    await page.getByTestId('chat-user').filter({ hasText: 'Where do the backups go?' }).waitFor();
    const reply = page.getByTestId('chat-assistant').filter({ hasText: '/mnt/nas/backups/cairn' });
    await reply.waitFor();
    expect(await reply.locator('strong').textContent()).toBe('restic');
    const callEl = page.getByTestId('chat-tool-call').filter({ hasText: 'memory_search' });
    expect(await callEl.count()).toBe(1);
    const result = page.getByTestId('chat-tool-result').filter({ hasText: 'memory_search' });
    await result.click();
    expect(await result.textContent()).toMatch(/restic/);
    // The new session now exists and is selected.
    await page.getByRole('combobox', { name: 'Session' }).locator('option:checked').filter({ hasNotText: 'New chat' }).waitFor({ state: 'attached' });
    await screenshot(page, 'chat');
    expect(errors).toEqual([]);
    await page.close();
  });
});
