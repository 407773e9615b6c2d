/**
 * The Sessions pages in Chromium over `cairn serve` on a seeded state dir: the list (filter,
 * sort, keyboard), the timeline with compaction cards and the token chart, the pruning view
 * (counts checked against the engine's own preview of the same session), the compaction
 * inspector (dry run, compact now with the deterministic extract), the read-only state and
 * the empty state. Each page is saved as a screenshot; any console error fails the suite.
 */
import fs from 'node:fs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { createDirectClient } from '../../electron/engine/rpc/direct';
import type { LLM } from '../../electron/engine/llm/types';
import { launchChromium, openPage, screenshot } from '../helpers/browser';
import { serveStateDir, type Served } from '../helpers/server';
import { seedSessions } from '../helpers/seed-sessions';
import { tmpDir } from '../helpers/tmp';

let browser: Browser;
let served: Served | undefined;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});
afterEach(async () => {
  await served?.close();
  served = undefined;
});

/** Scroll the timeline down until `selector` is rendered (the list is virtualised). */
async function scrollUntil(page: Page, selector: string): Promise<void> {
  const found = await page.evaluate(async (sel) => {
    const el = document.querySelector('[data-testid="timeline"]') as HTMLElement;
    for (let i = 0; i < 400; i++) {
      if (el.querySelector(sel)) return true;
      el.scrollTop += 500;
      await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    }
    return el.querySelector(sel) !== null;
  }, selector);
  expect(found, `timeline never rendered ${selector}`).toBe(true);
}

describe('Sessions in Chromium over cairn serve', () => {
  it('lists sessions, filters, sorts and opens one from the keyboard; shows compaction cards and the token chart', async () => {
    const stateDir = tmpDir();
    const seeded = seedSessions(stateDir);
    served = await serveStateDir(stateDir);
    const { page, errors } = await openPage(browser, `${served.server.openUrl}#/sessions`);
    const rows = page.locator('[role="option"]');
    await rows.first().waitFor();
    expect(await rows.count()).toBe(4);
    // Newest activity first: the billing session (25 min ago).
    expect(await rows.first().getAttribute('data-session-id')).toBe(seeded.compacted.sessionId);
    await expect.poll(() => rows.first().textContent()).toContain('2 compactions');

    await page.getByLabel('Filter sessions').fill('embedding');
    await expect.poll(() => rows.count()).toBe(1);
    expect(await rows.first().textContent()).toContain('Embedding model choice');
    await page.getByLabel('Filter sessions').fill('');
    await page.getByLabel('Sort sessions by').selectOption('size');
    await expect.poll(() => rows.first().getAttribute('data-session-id')).toBe(seeded.compacted.sessionId);
    await screenshot(page, 'sessions-list');

    // Keyboard: focus the list, Home, Enter opens the first session.
    await page.getByRole('listbox', { name: 'Session list' }).focus();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Home');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Postgres 16 migration (billing)' }).waitFor();
    await page.locator('[data-testid="timeline"] [data-entry-id]').first().waitFor();
    await page.locator('[data-testid="token-chart"] canvas').first().waitFor();

    const api = createDirectClient(served.engine);
    // A tool result shows its size: chars and the engine's token estimate.
    const page0 = await api['sessions.entries']({ sessionId: seeded.compacted.sessionId, offset: 0, limit: 20 });
    const result = page0.entries.find((e) => e.role === 'toolResult')!;
    const chars = (result.message!.content as { type: string; text?: string }[]).reduce((n, b) => n + (b.text?.length ?? 0), 0);
    expect(await page.locator(`[data-entry-id="${result.id}"] [data-testid="result-size"]`).textContent()).toBe(
      `${chars.toLocaleString('en-US')} chars · ~${result.tokens.toLocaleString('en-US')} tokens`,
    );
    // The first compaction card: its tokens and the jump to the first kept entry.
    const overview = await api['sessions.overview']({ sessionId: seeded.compacted.sessionId });
    const [c1, c2] = overview.compactions;
    await scrollUntil(page, `[data-entry-id="${c1!.id}"] [data-testid="compaction-card"]`);
    const card1 = page.locator(`[data-entry-id="${c1!.id}"] [data-testid="compaction-card"]`);
    expect(await card1.textContent()).toContain('Compaction 1');
    expect(await card1.getByTestId('compaction-tokens').textContent()).toBe(`${c1!.tokensBefore.toLocaleString('en-US')} → ${c1!.tokensAfter.toLocaleString('en-US')} tokens`);
    expect(await card1.locator('h2').first().textContent()).toBe('Decisions'); // the summary is rendered Markdown
    await scrollUntil(page, `[data-entry-id="${c2!.id}"] [data-testid="compaction-card"]`);
    const card2 = page.locator(`[data-entry-id="${c2!.id}"] [data-testid="compaction-card"]`);
    // Summary of a summary: the second card links the first.
    expect(await card2.getByLabel('Earlier compactions').textContent()).toContain('compaction 1');
    await screenshot(page, 'sessions-timeline');
    await card2.getByRole('button', { name: /Jump to first kept entry/ }).click();
    const kept = page.locator(`[data-testid="timeline"] [data-entry-id="${c2!.firstKeptEntryId}"]`);
    await kept.waitFor();
    await expect.poll(() => kept.evaluate((el) => el.className)).toContain('is-flash');

    // Images are thumbnails from data URIs; thinking is collapsed until opened.
    await page.locator(`[data-session-id="${seeded.sessions[1]!.sessionId}"]`).click();
    const thumb = page.locator('[data-testid="timeline"] img[alt^="Image (image/png"]').first();
    await thumb.waitFor();
    expect(await thumb.getAttribute('src')).toMatch(/^data:image\/png;base64,iVBOR/);
    const thinking = page.locator('[data-testid="timeline"] details.thinking').first();
    expect(await thinking.locator('.thinking-body').count()).toBe(0);
    await thinking.locator('summary').click();
    await thinking.locator('.thinking-body').waitFor();
    expect(errors).toEqual([]);
    await page.close();
  });

  it('pruning view: trimmed/cleared counts match the engine, and tried settings are not saved', async () => {
    const stateDir = tmpDir();
    const seeded = seedSessions(stateDir);
    served = await serveStateDir(stateDir);
    const api = createDirectClient(served.engine);
    const id = seeded.compacted.sessionId;
    const { page, errors } = await openPage(browser, `${served.server.openUrl}#/sessions/${id}/pruning`);
    await page.getByTestId('prune-trimmed').waitFor();
    const engine = await api['prune.preview']({ sessionId: id });
    expect(engine.diff.softTrimmed).toBeGreaterThan(0);
    expect(engine.diff.cleared).toBeGreaterThan(0);
    expect(await page.getByTestId('prune-trimmed').textContent()).toBe(String(engine.diff.softTrimmed));
    expect(await page.getByTestId('prune-cleared').textContent()).toBe(String(engine.diff.cleared));
    expect(await page.locator('.prune-table tbody tr[data-action="cleared"]').count()).toBe(engine.diff.cleared);
    expect(await page.locator('.prune-table tbody tr[data-action="soft-trimmed"]').count()).toBe(engine.diff.softTrimmed);
    await screenshot(page, 'sessions-pruning');

    // Try a smaller window: more is cleared; the UI again shows what the engine computes.
    await page.getByLabel('Context window (tokens)').fill('120000');
    const small = await api['prune.preview']({ sessionId: id, contextWindowTokens: 120_000 });
    expect(small.diff.cleared).toBeGreaterThan(engine.diff.cleared);
    await expect.poll(() => page.getByTestId('prune-cleared').textContent()).toBe(String(small.diff.cleared));
    // Protect every tool result: nothing is trimmed or cleared.
    await page.getByLabel('keepLastAssistants').fill('500');
    await expect.poll(() => page.getByTestId('prune-trimmed').textContent()).toBe('0');
    expect(await page.getByTestId('prune-cleared').textContent()).toBe('0');
    // Nothing was written to the config.
    const cfg = await api['config.get']({});
    expect(JSON.stringify(cfg.raw)).not.toContain('keepLastAssistants');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('compaction inspector: dry run with the cut in the timeline, compact now with the extract, history grows', async () => {
    const stateDir = tmpDir();
    const seeded = seedSessions(stateDir);
    served = await serveStateDir(stateDir);
    const api = createDirectClient(served.engine);
    const id = seeded.compacted.sessionId;
    const { page, errors } = await openPage(browser, `${served.server.openUrl}#/sessions/${id}/compaction`);
    const plan = await api['compact.plan']({ sessionId: id });
    await page.getByTestId('plan-prompt').waitFor();
    expect(await page.getByTestId('compact-summariser').textContent()).toContain('deterministic extract');
    expect(await page.getByTestId('plan-prompt').textContent()).toBe(plan.prompt.user);
    expect(await page.getByRole('heading', { name: 'History (2)' }).count()).toBe(1);
    await screenshot(page, 'sessions-compaction');

    // The cut, highlighted in the timeline.
    await page.getByRole('button', { name: 'Show the cut in the timeline' }).click();
    const cut = page.locator(`[data-testid="timeline"] [data-entry-id="${plan.cutEntryId}"]`);
    await cut.waitFor();
    expect(await cut.evaluate((el) => el.className)).toContain('is-cut');

    await page.getByRole('tab', { name: 'Compaction' }).click();
    await page.getByLabel('Instructions for the summary').fill('keep every migration file name');
    await page.getByRole('button', { name: 'Compact now' }).click();
    await page.getByTestId('compact-result').waitFor();
    expect(await page.getByTestId('compact-result').textContent()).toContain('deterministic extract');
    await page.getByRole('heading', { name: 'History (3)' }).waitFor();
    await expect.poll(() => page.getByTestId('compact-result').textContent()).toContain('Compaction 3');
    const after = await api['sessions.overview']({ sessionId: id });
    expect(after.compactions).toHaveLength(3);
    expect(after.compactions[2]!.extract).toBe(true);
    await expect.poll(() => page.locator(`[data-session-id="${id}"]`).textContent()).toContain('3 compactions');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('compact now with a configured model: progress, then Cancel leaves the transcript unchanged', async () => {
    const stateDir = tmpDir();
    const seeded = seedSessions(stateDir);
    // A summariser that never answers until cancelled (a slow local model).
    const slow: LLM = {
      provider: 'fake',
      model: 'slow-summariser',
      contextWindow: 200_000,
      chat: (req) =>
        new Promise((_resolve, reject) => {
          req.signal?.addEventListener('abort', () => reject(Object.assign(new Error('aborted'), { name: 'AbortError' })), { once: true });
        }),
      dispose: async () => {},
    };
    served = await serveStateDir(stateDir, { createLlm: () => slow });
    const api = createDirectClient(served.engine);
    const id = seeded.compacted.sessionId;
    const before = fs.readFileSync(seeded.compacted.file);
    const { page, errors } = await openPage(browser, `${served.server.openUrl}#/sessions/${id}/compaction`);
    await page.getByTestId('compact-summariser').waitFor();
    expect(await page.getByTestId('compact-summariser').textContent()).toContain('fake · slow-summariser');
    await page.getByRole('button', { name: 'Compact now' }).click();
    const progress = page.getByTestId('compact-progress');
    await progress.waitFor();
    await expect.poll(() => progress.textContent()).toContain('summarize');
    await screenshot(page, 'sessions-compaction-progress');
    await progress.getByRole('button', { name: 'Cancel' }).click();
    await page.getByRole('alert').filter({ hasText: 'Cancelled' }).waitFor();
    expect(fs.readFileSync(seeded.compacted.file).equals(before)).toBe(true);
    expect((await api['sessions.overview']({ sessionId: id })).compactions).toHaveLength(2);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('read-only state dir: Compact now is disabled and says why', async () => {
    const stateDir = tmpDir();
    const seeded = seedSessions(stateDir, { access: 'read-only' });
    served = await serveStateDir(stateDir);
    const { page, errors } = await openPage(browser, `${served.server.openUrl}#/sessions/${seeded.compacted.sessionId}/compaction`);
    await page.getByTestId('compact-blocked').waitFor();
    expect(await page.getByTestId('compact-blocked').textContent()).toContain('read-only');
    expect(await page.getByRole('button', { name: 'Compact now' }).isDisabled()).toBe(true);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('empty state dir: the welcome first; past it, the list says where it looked, in plain words', async () => {
    const stateDir = tmpDir();
    served = await serveStateDir(stateDir);
    const { page, errors } = await openPage(browser, `${served.server.openUrl}#/sessions`);
    await page.getByRole('button', { name: 'Start a new assistant' }).click();
    await page.getByRole('button', { name: 'Sessions' }).click();
    const empty = page.getByTestId('sessions-empty');
    await empty.waitFor();
    const text = (await empty.textContent()) ?? '';
    expect(text).toContain(stateDir);
    expect(text).not.toContain('--state-dir');
    expect(await empty.getByRole('button', { name: 'Open another folder' }).count()).toBe(1);
    await screenshot(page, 'sessions-empty');
    expect(errors).toEqual([]);
    await page.close();
  });
});
