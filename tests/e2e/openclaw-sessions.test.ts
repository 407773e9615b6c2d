/**
 * Sessions written by OpenClaw 2026.9.6 (tests/fixtures/openclaw-2026.9.6/legacy-export) in
 * Chromium over `cairn serve` (issue 12 items 2, 6, 7): the pruning view marks the results
 * OpenClaw's replay prunes again and names a route that is not cache-TTL eligible; the
 * compaction card shows OpenClaw's recorded figures apart from Cairn's estimate; an error
 * turn renders as an error. Nothing is written into the state dir.
 */
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { openPage, screenshot } from '../helpers/browser';
import { e2eEnv } from '../helpers/e2e-env';
import { OC2026_LEGACY_DIR } from '../helpers/openclaw-2026';

/** Every file of the state dir with its bytes, to check that nothing was changed or added. */
function snapshot(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const f of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (f.isFile()) out.set(`${f.parentPath}/${f.name}`, fs.readFileSync(`${f.parentPath}/${f.name}`, 'base64'));
  }
  return out;
}

const env = e2eEnv('cairn-e2e-oc2026-', (stateDir) => {
  fs.cpSync(OC2026_LEGACY_DIR, stateDir, { recursive: true });
  return snapshot(stateDir);
});

describe('OpenClaw 2026.9 sessions in Chromium', () => {
  it("pruning view: s5's four replayed soft-trims are marked, with the provider's last prompt size", async () => {
    const { page, errors } = await openPage(env.browser, `${env.served.server.openUrl}#/sessions/s5-anth/pruning`);
    await page.getByTestId('prune-replay').waitFor();
    expect(await page.getByTestId('prune-replayed').count()).toBe(4);
    expect(await page.locator('.prune-table tbody tr[data-action="soft-trimmed"]').count()).toBe(4);
    expect(await page.getByTestId('prune-last-call').textContent()).toContain('12,079 prompt tokens');
    await screenshot(page, 'openclaw-pruning-replay');

    // s2 talks OpenAI wire: OpenClaw writes projection markers only, so the gate says why it is closed.
    await page.goto(`${env.served.server.openUrl}#/sessions/s2-beta/pruning`);
    await expect.poll(() => page.getByTestId('prune-gate').textContent()).toContain('not cache-TTL eligible');
    expect(errors).toEqual([]);
    await page.close();
    expect(snapshot(env.stateDir)).toEqual(env.seeded);
  });

  it("timeline: the compaction card keeps OpenClaw's figures apart from Cairn's estimate; the error turn shows its error", async () => {
    // Opened at the error turn's line (40), as a search citation would; the compaction is 4 lines on.
    const { page, errors } = await openPage(env.browser, `${env.served.server.openUrl}#/sessions/s1-alpha/timeline?line=40`);
    const err = page.getByTestId('error-turn');
    await err.waitFor();
    expect(await err.textContent()).toContain("400 This model's maximum context length is 24000 tokens");
    await page.getByTestId('compaction-tokens').first().waitFor();
    const tokens = await page.getByTestId('compaction-tokens').first().textContent();
    expect(tokens).toContain('OpenClaw: 27,378 → 19,855 tokens');
    expect(tokens).toContain('Cairn estimate');
    // The projection markers say what they are, not "Model call recorded · /".
    expect(await page.locator('[data-testid="timeline"]').textContent()).not.toContain('Model call recorded (prompt cache touched) · /');
    await screenshot(page, 'openclaw-timeline');
    expect(errors).toEqual([]);
    await page.close();
  });
});
