/**
 * A state dir whose OpenClaw session store has a schema newer than Cairn knows (the dreaming
 * fixture the real OpenClaw 2026.9.6 wrote, its `user_version` bumped in the copy): the window
 * names it in a banner on every page, with the way to doctor's details, rather than showing
 * the sessions as if whole. OpenClaw's dir is byte-identical afterwards.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { openPage, screenshot } from '../helpers/browser';
import { e2eEnv } from '../helpers/e2e-env';
import { treeOf } from '../helpers/openclaw-state';
import { OC_DREAMING_STATE_DIR } from '../helpers/openclaw-dreaming';

const env = e2eEnv('cairn-e2e-ocschema-', (stateDir) => {
  fs.cpSync(OC_DREAMING_STATE_DIR, stateDir, { recursive: true });
  const db = new Database(path.join(stateDir, 'agents', 'main', 'agent', 'openclaw-agent.sqlite'));
  db.pragma('user_version = 99');
  db.close();
  return treeOf(stateDir);
});

describe('an OpenClaw store schema Cairn does not know', () => {
  it('is named in a banner of the window, which leads to doctor', async () => {
    const { page, errors } = await openPage(env.browser, `${env.served.server.openUrl}#/sessions`);
    const banner = page.getByTestId('store-schema-banner');
    await banner.waitFor();
    expect(await banner.textContent()).toMatch(/^main: OpenClaw's session store has schema version 99, newer than the 23 Cairn knows/u);
    await screenshot(page, 'store-schema-banner');
    await banner.getByRole('button', { name: 'Details' }).click();
    await page.waitForURL(/#\/status$/u);
    expect(errors).toEqual([]);
    await page.close();
    expect(treeOf(env.stateDir)).toEqual(env.seeded);
  });
});
