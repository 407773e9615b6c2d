/**
 * Issue 32 in Chromium: the Compaction tab names an identifier the summary lost and its link
 * jumps the timeline to where it was said; the line above the session list sums up the state
 * dir; the Memory page's health list names a planted duplicate and a planted contradiction,
 * and removing the duplicate shows the diff first and then writes it (writing is on).
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openStateDir } from '../../electron/engine/config/state-dir';
import { openPage, screenshot } from '../helpers/browser';
import { e2eEnv } from '../helpers/e2e-env';
import { writeTree } from '../helpers/tmp';

const SID = 'audit-e2e';
const ASK_ID = 'aaaa0001';

function seed(stateDir: string): void {
  openStateDir(stateDir);
  const at = (i: number) => `2026-11-03T10:0${i}:00.000Z`;
  const lines = [
    { type: 'session', version: 3, id: SID, timestamp: '2026-11-03T09:59:00.000Z', cwd: stateDir },
    { type: 'message', id: ASK_ID, parentId: null, timestamp: at(0), message: { role: 'user', content: 'The ticket is ZX-4471: the pool in db/pool.ts leaks.' } },
    { type: 'message', id: 'aaaa0002', parentId: ASK_ID, timestamp: at(1), message: { role: 'assistant', content: [{ type: 'text', text: 'Understood, the primary is 10.0.0.7:5432.' }] } },
    { type: 'message', id: 'aaaa0003', parentId: 'aaaa0002', timestamp: at(2), message: { role: 'user', content: 'Carry on.' } },
    { type: 'message', id: 'aaaa0004', parentId: 'aaaa0003', timestamp: at(3), message: { role: 'assistant', content: [{ type: 'text', text: 'Carrying on.' }] } },
    { type: 'compaction', id: 'aaaa0005', parentId: 'aaaa0004', timestamp: at(4), summary: '## Decisions\n- Look at the primary 10.0.0.7:5432 for the pool leak.', firstKeptEntryId: 'aaaa0003', tokensBefore: 12000, tokensAfter: 3000 },
  ];
  writeTree(stateDir, {
    [`agents/main/sessions/${SID}.jsonl`]: `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`,
    'workspace/MEMORY.md': '# Memory\n\n- The user prefers dark mode in every editor.\n- The staging database listens on port 5432.\n- User prefers dark mode in every editor\n',
    'workspace/memory/2026-12-02.md': '# 2026-12-02\n\n- Moved the staging database to port 6543 today.\n',
  });
}

const env = e2eEnv('cairn-e2e-audit-', seed);

describe('Compaction audit and MEMORY.md health', () => {
  it('names the lost identifier, jumps to where it was said, and sums up the state dir', async () => {
    const { page, errors } = await openPage(env.browser, `${env.served.server.openUrl}#/sessions/${SID}/compaction`);
    const lost = page.getByTestId('audit-lost-identifiers');
    await lost.getByText('ZX-4471').waitFor();
    expect(await lost.locator('li').allTextContents()).toEqual(['ZX-4471 L2 (user)', 'db/pool.ts L2 (user)']);
    await page.getByTestId('audit-state').filter({ hasText: '1 of 1 compaction lost identifiers; the last one lost ZX-4471, db/pool.ts.' }).waitFor();
    await screenshot(page, 'audit-compaction-tab');
    await lost.locator('li').filter({ hasText: 'ZX-4471' }).getByRole('button', { name: 'L2 (user): jump to where it was said' }).click();
    await page.locator(`[data-entry-id="${ASK_ID}"].is-flash`).waitFor();
    expect(await page.getByRole('tab', { name: 'Timeline' }).getAttribute('aria-selected')).toBe('true');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('the health list names the planted duplicate and contradiction, and removes the duplicate after showing the diff', async () => {
    const { page, errors } = await openPage(env.browser, `${env.served.server.openUrl}#/memory`);
    const health = page.getByTestId('memory-health');
    const dup = health.locator('[data-kind="duplicate"]');
    await dup.waitFor();
    expect(await dup.textContent()).toContain('MEMORY.md:5');
    expect(await dup.textContent()).toContain('The same fact as line 3.');
    const contra = health.locator('[data-kind="contradiction"]');
    expect(await contra.textContent()).toContain('Says port 5432; memory/2026-12-02.md (2026-12-02) says 6543.');
    expect(await contra.textContent()).toContain('Moved the staging database to port 6543 today.');
    await screenshot(page, 'memory-health');
    await dup.getByRole('button', { name: 'Remove this entry…' }).click();
    expect(await dup.getByTestId('health-diff').textContent()).toBe('− - User prefers dark mode in every editor');
    await dup.getByRole('button', { name: 'Apply to MEMORY.md' }).click();
    await health.locator('[data-kind="duplicate"]').waitFor({ state: 'detached' });
    expect(fs.readFileSync(path.join(env.stateDir, 'workspace', 'MEMORY.md'), 'utf8')).not.toContain('- User prefers dark mode in every editor\n');
    expect(errors).toEqual([]);
    await page.close();
  });
});
