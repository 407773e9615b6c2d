/**
 * What Cairn's side of the OpenClaw bridge keeps, seen where it crosses: a recall log per
 * session whatever its id (`a/b` and `a_b` once shared a file), what an old shared file held
 * still read for the right session only, the user's secrets redacted in the log as the audit
 * redacts them, and a cancelled corpus search stopped — the plugin running under OpenClaw's
 * Node 24 against the real bridge.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { foreignStateHome } from '../../electron/engine/config/data-dir';
import type { EngineContext } from '../../electron/engine/core/context';
import { logSegment, recallLogPath } from '../../electron/engine/openclaw/recall-log';
import { readSessionRecall } from '../../electron/engine/openclaw/recall-read';
import type { OpenClawRecallEntry } from '../../shared/types/openclaw-recall';
import { CAIRN_BIN } from '../helpers/cli';
import { pluginOcDir } from '../helpers/openclaw-plugin-dir';
import { openClawNode, rawBridge, startPluginHost } from '../helpers/openclaw-plugin-host';

const { node, skip } = openClawNode();
const PAUSED_BIN = path.join(__dirname, '..', 'helpers', 'openclaw-bridge-paused.mjs');
const KEY = 'sk-proj-Zq81mVb2LxW9pTf4Hc7RkN3s';

const linesOf = (file: string): OpenClawRecallEntry[] => fs.readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as OpenClawRecallEntry);

describe('recall log names', () => {
  it('give every id its own file name, and keep the names OpenClaw ids already had', () => {
    const ids = ['a/b', 'a_b', 'a~2Fb', 'a\\b', '..', '.', 'é', 'x'.repeat(300), `${'x'.repeat(300)}y`, '💾', 'a b'];
    const names = ids.map(logSegment);
    expect(new Set(names).size).toBe(ids.length);
    for (const n of names) {
      expect(n).toMatch(/^[A-Za-z0-9._~-]{1,200}$/);
      expect(n).not.toMatch(/^\.*$/);
    }
    expect(['s-1', 'agent.main', 'a_b', '2026-12-04T10:00:00Z'.replaceAll(':', '-')].map(logSegment)).toEqual(['s-1', 'agent.main', 'a_b', '2026-12-04T10-00-00Z']);
  });

  it("read what the old shared file held for this session only, before the session's own lines", () => {
    const cairnDir = fs.mkdtempSync(path.join(fs.realpathSync(process.env.TMPDIR ?? '/tmp'), 'cairn-recall-names-'));
    const ctx = { state: () => ({ cairnDir }) } as unknown as EngineContext;
    const entry = (sessionId: string, promptPreview: string): OpenClawRecallEntry => ({ v: 1, ts: '2026-12-04T10:00:00.000Z', agentId: 'main', sessionId, turn: { promptPreview, promptSha256: 'x' }, query: promptPreview, outcome: 'none', reason: 'no results', tookMs: 1, hits: [], injectedChars: 0 });
    const legacy = path.join(cairnDir, 'openclaw-recall', 'main', 'a_b.jsonl');
    fs.mkdirSync(path.dirname(legacy), { recursive: true });
    fs.writeFileSync(legacy, `${[entry('a/b', 'old slash'), entry('a_b', 'old underscore')].map((e) => JSON.stringify(e)).join('\n')}\n`);
    fs.writeFileSync(recallLogPath(ctx, 'main', 'a/b'), `${JSON.stringify(entry('a/b', 'new slash'))}\n`);
    expect(readSessionRecall(ctx, 'main', 'a/b').records.map((r) => r.promptPreview)).toEqual(['old slash', 'new slash']);
    expect(readSessionRecall(ctx, 'main', 'a_b').records.map((r) => r.promptPreview)).toEqual(['old slash', 'old underscore'].slice(1));
  });
});

describe(`Cairn's recall log and corpus search behind the plugin on OpenClaw's Node 24${skip}`, () => {
  it.skipIf(!node)('sessions a/b and a_b get a log each, and a secret in the prompt is redacted in it', { timeout: 180_000 }, async () => {
    const { stateDir, dataDir } = pluginOcDir();
    const host = startPluginHost(node as string, { stateDir, dataDir, node: process.execPath, bin: CAIRN_BIN, recallBudgetMs: 600_000, startupBudgetMs: 600_000, minScore: 0 });
    try {
      await host.call('prompt', { message: `What is the Lisbon trip codeword? My key is ${KEY}`, sessionId: 'a/b' });
      await host.call('prompt', { message: 'Lisbon?', sessionId: 'a_b', messages: [{ role: 'user', content: `deploy with token=${KEY}` }] });
    } finally {
      await host.close();
    }
    const ctx = { state: () => ({ cairnDir: foreignStateHome(stateDir, { CAIRN_DATA_DIR: dataDir }) }) } as unknown as EngineContext;
    const slash = linesOf(recallLogPath(ctx, 'main', 'a/b'));
    const underscore = linesOf(recallLogPath(ctx, 'main', 'a_b'));
    expect(recallLogPath(ctx, 'main', 'a/b')).not.toBe(recallLogPath(ctx, 'main', 'a_b'));
    expect(slash.map((l) => l.sessionId)).toEqual(['a/b']);
    expect(underscore.map((l) => l.sessionId)).toEqual(['a_b']);
    expect(slash[0]?.turn.promptPreview).toBe('What is the Lisbon trip codeword? My key is [REDACTED]');
    expect(underscore[0]?.query).toBe('deploy with token=[REDACTED] Lisbon?');
    expect(JSON.stringify([slash, underscore])).not.toContain(KEY.slice(8));
    expect(readSessionRecall(ctx, 'main', 'a/b').records).toHaveLength(1);
  });

  it('a cancelled corpus search stops: Cairn answers it cancelled, not with results nobody waits for', { timeout: 120_000 }, async () => {
    const { stateDir, dataDir } = pluginOcDir();
    // The search is held until the cancel comes, as a slow search would be.
    const bridge = rawBridge(PAUSED_BIN, stateDir, { CAIRN_DATA_DIR: dataDir, CAIRN_TEST_BRIDGE_PAUSE: JSON.stringify({ search: 'forever' }) });
    try {
      bridge.send(JSON.stringify({ id: 1, op: 'search', query: 'Lisbon trip codeword' }));
      bridge.send(JSON.stringify({ id: 2, op: 'cancel', target: 1 }));
      expect(await bridge.next()).toMatchObject({ id: 1, ok: false, error: expect.stringMatching(/cancel|abort/i) });
    } finally {
      await bridge.close();
    }
  });
});
