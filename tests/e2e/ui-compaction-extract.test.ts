/**
 * Issue 14 item 7, in Chromium: without a model, the dry run says which parts of the typed
 * instructions the deterministic extract follows and which it refuses (`extractNote`), and
 * every compaction card copies its summary exactly as stored in the transcript.
 */
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { screenshot } from '../helpers/browser';
import { e2eEnv } from '../helpers/e2e-env';
import { clipboardPage } from '../helpers/clipboard-page';
import { seedSessions } from '../helpers/seed-sessions';

const env = e2eEnv('cairn-e2e-compact-extract-', (dir) => seedSessions(dir).compacted, { createLlm: () => undefined });

describe('Compaction inspector without a model', () => {
  it('shows what the extract does with the instructions, and copies a summary', async () => {
    const { page, errors, close } = await clipboardPage(env.browser, { width: 1280, height: 900 });
    await page.goto(`${env.served.server.openUrl}#/sessions/${env.seeded.sessionId}/compaction`);
    await page.getByTestId('compact-summariser').filter({ hasText: 'deterministic extract' }).waitFor();

    const box = page.getByRole('textbox', { name: 'Instructions for the summary' });
    await box.fill('keep every port number; rewrite it as a haiku');
    await box.press('Tab'); // the plan is re-run when the box loses focus
    const note = page.getByTestId('plan-extract-note').filter({ hasText: 'haiku' });
    await note.waitFor();
    const text = (await note.textContent()) ?? '';
    expect(text).toMatch(/followed: every port number kept/);
    expect(text).toMatch(/not followed .*"rewrite it as a haiku"/);
    await screenshot(page, 'compaction-extract-note');

    // The newest compaction is listed first in the history; its summary is copied verbatim.
    const summaries = fs
      .readFileSync(env.seeded.file, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { type: string; summary?: string })
      .filter((e) => e.type === 'compaction')
      .map((e) => e.summary);
    const n = summaries.length;
    expect(n).toBeGreaterThan(0);
    await page.getByRole('button', { name: `Copy the summary of compaction ${n}` }).first().click();
    await page.getByRole('button', { name: `Copied the summary of compaction ${n}` }).first().waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(summaries[n - 1]);
    expect(errors).toEqual([]);
    await close();
  });
});
