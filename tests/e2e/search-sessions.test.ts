/**
 * A search hit in a past session opens that session's timeline scrolled to the cited entry
 * (not its top): Chromium over cairn serve, transcripts indexed (sources memory +
 * sessions), a session long enough that the cited entry is far below the first screen.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openPage, screenshot } from '../helpers/browser';
import { e2eEnv } from '../helpers/e2e-env';
import { seedLargeSession } from '../helpers/seed-sessions';
import { FakeEmbedder } from '../../testkit/fake-embedder';

const env = e2eEnv(
  'cairn-e2e-search-sessions-',
  (dir) => {
    const session = seedLargeSession(dir, 600);
    const config = { agents: { defaults: { memorySearch: { sources: ['memory', 'sessions'], sync: { watch: false } } } } };
    fs.writeFileSync(path.join(dir, 'cairn.json'), JSON.stringify(config));
    fs.mkdirSync(path.join(dir, 'workspace'), { recursive: true });
    return session;
  },
  { createEmbedder: async () => new FakeEmbedder() },
);

/** The id of the first entry at or after 1-based JSONL line `line` of the session file. */
function entryIdAtLine(line: number): string {
  const lines = fs.readFileSync(env.seeded.file, 'utf8').split('\n');
  for (let i = line - 1; i < lines.length; i++) {
    const e = JSON.parse(lines[i]!) as { type: string; id?: string };
    if (e.type !== 'session' && e.id) return e.id;
  }
  throw new Error(`no entry at or after line ${line}`);
}

describe('Search hits in sessions', () => {
  it('open the session timeline at the cited entry', async () => {
    const { page, errors } = await openPage(env.browser, `${env.served.server.openUrl}#/search`);
    const box = page.getByRole('searchbox', { name: 'Search memory' });
    // "Step 100" is a user message (cycle 100 of ~120) about 5/6 of the way down the session.
    await box.fill('"Step 100"');
    const hit = page.getByTestId('search-result').filter({ has: page.locator('.src-sessions') }).first();
    await hit.waitFor();
    const cite = (await hit.locator('.result-cite').textContent())!;
    const start = Number(/#L(\d+)-L\d+$/.exec(cite)![1]);
    expect(start).toBeGreaterThan(300); // far below the first screen
    await hit.locator('.result-cite').click();

    const timeline = page.getByTestId('timeline');
    await timeline.waitFor();
    const row = page.locator(`[data-entry-id="${entryIdAtLine(start)}"]`);
    await row.waitFor();
    // The cited entry is on screen, inside the timeline's viewport.
    await expect.poll(async () => {
      const [r, t] = await Promise.all([row.boundingBox(), timeline.boundingBox()]);
      return Boolean(r && t && r.y >= t.y - 1 && r.y < t.y + t.height);
    }).toBe(true);
    expect(page.url()).toContain(`#/sessions/${encodeURIComponent(env.seeded.sessionId)}/timeline`);
    await screenshot(page, 'search-session-hit');
    expect(errors).toEqual([]);
  });
});
