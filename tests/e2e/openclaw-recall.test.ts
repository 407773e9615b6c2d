/**
 * Issue 30 item 6 in Chromium over `cairn serve`: a session of a connected OpenClaw dir whose
 * recall log (kept in Cairn's data dir, never in OpenClaw's) says what Cairn recalled before
 * each prompt. The recalled passages show under the right user turn with their citations,
 * scores and how long the search took; a turn without recall says why ("timed out after
 * 300 ms"); a memory citation opens the note at the cited lines and a session citation opens
 * that session; a line of the log that cannot be read is counted, not fatal.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { foreignStateHome } from '../../electron/engine/config/data-dir';
import { openPage, screenshot } from '../helpers/browser';
import { e2eEnv } from '../helpers/e2e-env';
import { tmpDir, writeTree } from '../helpers/tmp';

const dataDir = tmpDir('cairn-e2e-data-');
const ENV = { ...process.env, CAIRN_DATA_DIR: dataDir };
const sha = (s: string) => crypto.createHash('sha256').update(s, 'utf8').digest('hex');

const Q1 = 'Where does Priya keep the spare key?';
const Q2 = 'Thanks! And what is the wifi password?';

function line(id: string, parentId: string | null, ts: string, role: 'user' | 'assistant', text: string): string {
  const message = role === 'user' ? { role, content: text, timestamp: Date.parse(ts) } : { role, content: [{ type: 'text', text }], model: 'fake-1', provider: 'fake', timestamp: Date.parse(ts) };
  return JSON.stringify({ type: 'message', id, parentId, timestamp: ts, message });
}

function recordLine(ts: string, prompt: string, over: Record<string, unknown>): string {
  return JSON.stringify({ v: 1, ts, agentId: 'main', sessionId: 's-recall', sessionKey: 'agent:main:main', turn: { promptPreview: prompt.slice(0, 80), promptSha256: sha(prompt) }, query: prompt, tookMs: 38, hits: [], injectedChars: 0, ...over });
}

const env = e2eEnv(
  'cairn-e2e-recall-',
  (stateDir) => {
    const head = (id: string) => JSON.stringify({ type: 'session', version: 4, id, timestamp: '2026-12-03T09:00:00.000Z', cwd: stateDir });
    writeTree(stateDir, {
      'openclaw.json': JSON.stringify({ agents: { defaults: { workspace: path.join(stateDir, 'workspace') } } }),
      'workspace/MEMORY.md': '# Memory\n',
      'workspace/memory/house.md': '# House\n\nThe spare key is under the blue flowerpot by the back door.\nPriya moved it there in March.\n',
      'agents/main/sessions/sessions.json': JSON.stringify({
        'agent:main:main': { sessionId: 's-recall', updatedAt: Date.parse('2026-12-04T10:02:00.000Z') },
        'agent:main:explicit:s-earlier': { sessionId: 's-earlier', updatedAt: Date.parse('2026-12-03T09:01:00.000Z') },
      }),
      'agents/main/sessions/s-earlier.jsonl': [
        head('s-earlier'),
        line('e1', null, '2026-12-03T09:00:10.000Z', 'user', 'The wifi at the cabin is called pine-loft.'),
        line('e2', 'e1', '2026-12-03T09:00:12.000Z', 'assistant', 'Got it: the cabin wifi is pine-loft.'),
      ].join('\n') + '\n',
      'agents/main/sessions/s-recall.jsonl': [
        head('s-recall'),
        line('u1', null, '2026-12-04T10:00:00.400Z', 'user', Q1),
        line('a1', 'u1', '2026-12-04T10:00:02.000Z', 'assistant', 'Under the blue flowerpot by the back door.'),
        line('u2', 'a1', '2026-12-04T10:01:00.400Z', 'user', Q2),
        line('a2', 'u2', '2026-12-04T10:01:02.000Z', 'assistant', 'I do not know it.'),
      ].join('\n') + '\n',
    });
    const log = path.join(foreignStateHome(stateDir, ENV), 'openclaw-recall', 'main', 's-recall.jsonl');
    fs.mkdirSync(path.dirname(log), { recursive: true });
    fs.writeFileSync(
      log,
      [
        recordLine('2026-12-04T10:00:00.300Z', Q1, {
          outcome: 'injected',
          injectedChars: 412,
          hits: [
            { citation: 'memory/house.md#L3-L4', path: 'memory/house.md', startLine: 3, endLine: 4, score: 0.81, source: 'memory', snippet: 'The spare key is under the blue flowerpot by the back door.' },
            { citation: 'sessions/s-earlier.jsonl#L2-L3', path: 'sessions/s-earlier.jsonl', startLine: 2, endLine: 3, score: 0.34, source: 'sessions', snippet: 'The wifi at the cabin is called pine-loft.' },
          ],
        }),
        '{"v":1,"ts":',
        recordLine('2026-12-04T10:01:00.300Z', Q2, { outcome: 'timeout', reason: 'timed out after 300 ms', tookMs: 300 }),
      ].join('\n') + '\n',
    );
  },
  { env: ENV },
);

describe('Sessions view: what Cairn recalled for each turn of an OpenClaw session', () => {
  it('shows the recalled hits on the right turn, why another had none, and a citation opens the note', async () => {
    const { page, errors } = await openPage(env.browser, `${env.served.server.openUrl}#/sessions/s-recall/timeline`);
    const first = page.locator('[data-entry-id="u1"] [data-testid="turn-recall"]');
    await first.waitFor();
    expect(await first.getAttribute('data-outcome')).toBe('injected');
    expect(await first.textContent()).toContain('Cairn recalled 2 passages for this turn · 412 chars added · 38 ms');
    expect(await first.getByTestId('recall-hit').allTextContents()).toEqual([
      expect.stringMatching(/^memory\/house\.md#L3-L4 memory score 0\.81The spare key is under the blue flowerpot/),
      expect.stringMatching(/^sessions\/s-earlier\.jsonl#L2-L3 session score 0\.34/),
    ]);
    const second = page.locator('[data-entry-id="u2"] [data-testid="turn-recall"]');
    expect(await second.textContent()).toContain('No recall: timed out after 300 ms');
    // Assistant turns carry no recall; the header counts prompts and the unreadable log line.
    expect(await page.locator('[data-entry-id="a1"] [data-testid="turn-recall"]').count()).toBe(0);
    const summary = page.getByTestId('recall-summary');
    expect(await summary.textContent()).toContain('Cairn recalled before 1 of 2 prompts');
    expect(await summary.textContent()).toContain('1 unreadable recall line');
    await screenshot(page, 'openclaw-recall-turns');

    // The memory citation opens the note with the cited lines marked.
    await first.getByRole('link', { name: 'memory/house.md#L3-L4' }).click();
    await page.getByTestId('memory-path').filter({ hasText: 'memory/house.md#L3-L4' }).waitFor();
    await page.locator('.md-hl').first().waitFor();
    expect((await page.locator('.md-hl').allTextContents()).join(' ')).toContain('The spare key is under the blue flowerpot');

    // The session citation opens the earlier session at the cited line.
    await page.goBack();
    await first.getByRole('link', { name: 'sessions/s-earlier.jsonl#L2-L3' }).click();
    await expect.poll(() => page.locator('#session-title').textContent()).toContain('s-earlier');
    await page.locator('[data-entry-id="e1"]').waitFor();
    expect(page.url()).toContain('#/sessions/s-earlier/timeline');
    expect(errors).toEqual([]);
    await page.close();
  });
});
