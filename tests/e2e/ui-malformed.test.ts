/**
 * Issue 14 item 4, in Chromium: lines of a transcript that do not parse are shown in the
 * timeline where they are in the file (line number, raw text, the parse error), and the
 * session header counts them, instead of the timeline skipping them without a word.
 */
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { openPage, screenshot } from '../helpers/browser';
import { e2eEnv } from '../helpers/e2e-env';
import { seedSessions } from '../helpers/seed-sessions';

const env = e2eEnv('cairn-e2e-malformed-', (dir) => {
  const seeded = seedSessions(dir);
  const quick = seeded.sessions.find((s) => s.key === 'agent:main:cli:quick');
  if (!quick) throw new Error('seed: no quick session');
  // Line 4 of the file (after the header and two entries) and a truncated last line.
  const lines = fs.readFileSync(quick.file, 'utf8').split('\n');
  lines.splice(3, 0, '{"type":"message","id":"deadbeef", oops');
  fs.writeFileSync(quick.file, `${lines.join('\n').replace(/\n$/, '')}\n{"type":"message","id":"cafe`);
  return quick;
});

describe('Malformed transcript lines', () => {
  it('shows each unreadable line in place with its number, raw text and error, and counts them', async () => {
    const { page, errors } = await openPage(env.browser, `${env.served.server.openUrl}#/sessions/${env.seeded.sessionId}/timeline`);
    await page.getByTestId('timeline').waitFor();
    const count = page.getByTestId('malformed-count');
    await count.waitFor();
    expect(await count.textContent()).toBe('2 unreadable lines');

    const bad = page.getByTestId('malformed-line');
    await bad.first().waitFor();
    const first = page.locator('[data-testid="malformed-line"][data-line="4"]');
    expect(await first.textContent()).toContain('Line 4 could not be read');
    expect(await first.textContent()).toContain('"id":"deadbeef", oops');
    expect(await first.locator('.malformed-error').textContent()).not.toBe('');
    // In place: the row right after the file's first two entries.
    expect(await first.locator('xpath=..').getAttribute('data-index')).toBe('2');
    await screenshot(page, 'session-malformed');

    // The truncated last line is at the end of the timeline.
    await page.getByTestId('timeline').focus();
    await page.keyboard.press('End');
    const lastLine = String(fs.readFileSync(env.seeded.file, 'utf8').split('\n').length);
    const last = page.locator(`[data-testid="malformed-line"][data-line="${lastLine}"]`);
    await last.waitFor();
    expect(await last.textContent()).toContain('{"type":"message","id":"cafe');
    expect(errors).toEqual([]);
    await page.close();
  });
});
