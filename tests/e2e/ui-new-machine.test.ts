/**
 * A machine unlike the developer's (issue 38, "a new machine is a test too"): the engine runs
 * under TZ=Pacific/Chatham (UTC+13:45 in December: its day starts at 10:15 UTC the day
 * before) and Chromium in German in that zone, on a narrow window. What a user there meets:
 * - every box that scrolls can be reached by keyboard — the MEMORY.md diff overflows here as
 *   it does with other fonts (axe `scrollable-region-focusable`, serious, on `.conflict-diff`
 *   when Debian's fonts-noto-cjk is installed);
 * - a session's day in the list is the day in the user's zone, as the timeline says, not
 *   UTC's (20:00 UTC on 1 October is 09:45 on 2 October in Chatham);
 * - times are written one way across the window ("2026-12-05 09:45:00", in the user's zone),
 *   and the calendar names its month in the language of its weekdays, whatever the
 *   browser's language.
 * .ci/run installs fonts-noto-cjk and the de_DE.UTF-8 locale so CI's machine differs too.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { axe } from '../helpers/axe';
import { screenshot } from '../helpers/browser';
import { e2eEnv } from '../helpers/e2e-env';
import { OC_DREAMING_STATE_DIR } from '../helpers/openclaw-dreaming';

// The engine (in this process) in Chatham's zone; Node reads TZ again when it changes.
process.env.TZ = 'Pacific/Chatham';

const SID = 'chatham-1';
const line = (o: Record<string, unknown>) => JSON.stringify(o);

const env = e2eEnv('cairn-e2e-machine-', (stateDir) => {
  fs.cpSync(OC_DREAMING_STATE_DIR, stateDir, { recursive: true });
  const dir = path.join(stateDir, 'agents', 'main', 'sessions');
  fs.mkdirSync(dir, { recursive: true });
  const at = '2026-10-01T20:00:00.000Z';
  fs.writeFileSync(
    path.join(dir, `${SID}.jsonl`),
    [
      line({ type: 'session', version: 3, id: SID, timestamp: at, cwd: stateDir }),
      line({ type: 'message', id: 'a0000001', parentId: null, timestamp: at, message: { role: 'user', content: 'Plan the kayak trip for the long weekend.' } }),
      line({ type: 'message', id: 'a0000002', parentId: 'a0000001', timestamp: at, message: { role: 'assistant', content: [{ type: 'text', text: 'Saturday at 9, back Monday.' }] } }),
    ].join('\n') + '\n',
  );
});

async function germanPage() {
  const ctx = await env.browser.newContext({ bypassCSP: true, viewport: { width: 640, height: 800 }, locale: 'de-DE', timezoneId: 'Pacific/Chatham' });
  const page = await ctx.newPage();
  const errors: string[] = [];
  page.on('console', (m) => m.type() === 'error' && errors.push(`console: ${m.text()}`));
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  return { page, errors };
}

describe('a machine in another zone, language and width', () => {
  it('lets a keyboard user scroll the overflowing MEMORY.md diff', async () => {
    const { page, errors } = await germanPage();
    expect(await page.evaluate(() => [navigator.language, Intl.DateTimeFormat().resolvedOptions().timeZone])).toEqual(['de-DE', 'Pacific/Chatham']);
    await page.goto(`${env.served.server.openUrl}#/memory?view=history`);
    await page.getByTestId('promotion').first().waitFor();
    const diff = page.getByTestId('history-diff');
    // The diff overflows its box here (it must, or this test shows nothing)…
    expect(await diff.evaluate((el) => el.scrollHeight > el.clientHeight)).toBe(true);
    // …so it is a named tab stop, and the arrow keys scroll it.
    await diff.focus();
    expect(await diff.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await diff.getAttribute('aria-label')).toBe('Differences: earlier version (−) and this version (+)');
    await page.keyboard.press('PageDown');
    await page.waitForFunction(() => (document.querySelector('[data-testid="history-diff"]')?.scrollTop ?? 0) > 0);
    expect(await axe(page)).toEqual([]);
    await screenshot(page, 'new-machine-history');
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it("shows a session's day in the user's zone, in the list as in the timeline", async () => {
    const { page, errors } = await germanPage();
    await page.goto(`${env.served.server.openUrl}#/sessions`);
    const row = page.locator(`#session-${SID}`);
    await row.waitFor();
    expect(await row.textContent()).toContain('2026-10-02');
    expect(await row.textContent()).not.toContain('2026-10-01');
    await row.click();
    const timeline = page.getByTestId('timeline');
    await timeline.getByText('Plan the kayak trip').waitFor();
    expect(await timeline.textContent()).toContain('2026-10-02 09:45:00');
    expect(await axe(page)).toEqual([]);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('writes dates and numbers one way, in the user\'s zone, whatever the browser\'s language', async () => {
    const { page, errors } = await germanPage();
    await page.goto(`${env.served.server.openUrl}#/memory`);
    // MEMORY.md's head says when it changed as the timeline writes times (not "5.12.2026, 09:45:00").
    const mtime = fs.statSync(path.join(env.stateDir, 'workspace', 'MEMORY.md')).mtime;
    const p = (n: number) => String(n).padStart(2, '0');
    const local = `${mtime.getFullYear()}-${p(mtime.getMonth() + 1)}-${p(mtime.getDate())} ${p(mtime.getHours())}:${p(mtime.getMinutes())}:${p(mtime.getSeconds())}`;
    await page.getByText(`changed ${local}`).waitFor();
    // The calendar's month is named in the language of its weekday headers (Mo, Tu, …).
    const files = await page.getByRole('navigation', { name: 'Memory files' }).textContent();
    expect(files).toMatch(/\b(January|February|March|April|May|June|July|August|September|October|November|December) \d{4}\b/u);
    expect(files).not.toMatch(/\b(Januar|Februar|März|Mai|Juni|Juli|Oktober|Dezember)\b/u);
    expect(errors).toEqual([]);
    await page.context().close();
  });
});
