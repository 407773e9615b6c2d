/**
 * OpenClaw's SQLite session store in Chromium over `cairn serve`: "Compact now" is disabled
 * for a session in the store, with the reason shown as text beside it (Cairn only reads that
 * store); and a store that cannot be read (a 0-byte database) is named with its cause on the
 * Sessions page instead of an empty list. Nothing in the state dir changes.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openPage, screenshot } from '../helpers/browser';
import { e2eEnv } from '../helpers/e2e-env';
import { OC2026_DB_REL, OC2026_STATE_DIR, treeOf } from '../helpers/openclaw-state';

const live = e2eEnv('cairn-e2e-ocsqlite-', (stateDir) => {
  fs.cpSync(OC2026_STATE_DIR, stateDir, { recursive: true });
  return treeOf(stateDir);
});

const broken = e2eEnv('cairn-e2e-ocbroken-', (stateDir) => {
  fs.cpSync(OC2026_STATE_DIR, stateDir, { recursive: true });
  fs.writeFileSync(path.join(stateDir, OC2026_DB_REL), '');
  return treeOf(stateDir);
});

describe("OpenClaw's SQLite store in the Sessions page", () => {
  it('"Compact now" is disabled for a SQLite session, and says why', async () => {
    const { page, errors } = await openPage(live.browser, `${live.served.server.openUrl}#/sessions/s5-anth/compaction`);
    // The reason names the store once the session list says where this session lives; until
    // then (state info first, under load) it is the read-only state dir's reason.
    const why = page.getByTestId('compact-blocked').filter({ hasText: "OpenClaw's SQLite session store, which Cairn only reads" });
    await why.waitFor();
    const button = page.getByRole('button', { name: 'Compact now' });
    expect(await button.isDisabled()).toBe(true);
    expect(await button.getAttribute('aria-describedby')).toBe('compact-blocked');
    await screenshot(page, 'openclaw-sqlite-compact-disabled');
    expect(errors).toEqual([]);
    await page.close();
    expect(treeOf(live.stateDir)).toEqual(live.seeded);
  });

  it('a 0-byte database is named with its cause, not shown as an empty list', async () => {
    const { page, errors } = await openPage(broken.browser, `${broken.served.server.openUrl}#/sessions`);
    const banner = page.getByTestId('store-unreadable');
    await banner.waitFor();
    const text = await banner.textContent();
    expect(text).toContain('openclaw-agent.sqlite');
    expect(text).toContain('the file is empty (0 bytes)');
    await screenshot(page, 'openclaw-sqlite-unreadable');
    expect(errors).toEqual([]);
    await page.close();
    expect(treeOf(broken.stateDir)).toEqual(broken.seeded);
  });
});
