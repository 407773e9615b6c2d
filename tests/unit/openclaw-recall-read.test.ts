/**
 * Reading Cairn's OpenClaw recall log (what the plugin recalled before each prompt) through
 * the engine's `openclaw.recall` channel, on real temp dirs: the log of an OpenClaw dir is
 * found in Cairn's data dir (nothing in OpenClaw's dir), a Cairn-created dir keeps it in its
 * own `cairn/` folder; bad lines are reported with their number and skipped; a log bigger than the
 * read window gives its newest records with the right line numbers; a line still being
 * written is left for the next read; ids that would leave the folder are refused.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { foreignStateHome } from '../../electron/engine/config/data-dir';
import { createEngine } from '../../electron/engine/engine';
import { readRecallLogFile } from '../../electron/engine/openclaw/recall-read';
import { createDirectClient } from '../../electron/engine/rpc/direct';
import { tmpDir, writeTree } from '../helpers/tmp';

const SID = '0b7c1e2a-5a0e-4c57-9b1e-1f0d3c2b4a11';

/** One log line in the plugin's format. */
function record(over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    v: 1,
    ts: '2026-12-04T10:00:00.000Z',
    agentId: 'main',
    sessionId: SID,
    turn: { promptPreview: 'Where does Priya keep the spare key?', promptSha256: 'AB'.repeat(32) },
    query: 'Where does Priya keep the spare key?',
    outcome: 'injected',
    tookMs: 41,
    hits: [{ citation: 'memory/house.md#L3-L4', path: 'memory/house.md', startLine: 3, endLine: 4, score: 0.82, source: 'memory', snippet: 'The spare key is under the blue pot.' }],
    injectedChars: 180,
    ...over,
  };
}

const engines: { dispose(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(engines.splice(0).map((e) => e.dispose()));
});

describe('openclaw.recall (the Sessions view reads the recall log)', () => {
  it('reads the log of an OpenClaw dir from Cairn’s data dir, reporting and skipping bad lines', async () => {
    const stateDir = writeTree(tmpDir('cairn-oc-'), { 'openclaw.json': '{}\n', 'agents/main/sessions/sessions.json': '{}\n' });
    const dataDir = tmpDir('cairn-data-');
    const env = { CAIRN_DATA_DIR: dataDir };
    const log = path.join(foreignStateHome(stateDir, env), 'openclaw-recall', 'main', `${SID}.jsonl`);
    fs.mkdirSync(path.dirname(log), { recursive: true });
    fs.writeFileSync(
      log,
      [
        JSON.stringify(record()),
        '{"v":1, not json',
        JSON.stringify(record({ outcome: 'maybe' })),
        '',
        JSON.stringify(record({ ts: '2026-12-04T10:05:00.000Z', outcome: 'timeout', reason: 'timed out after 300 ms', hits: [], injectedChars: 0, tookMs: 300 })),
      ].join('\n') + '\n',
    );
    const engine = createEngine({ stateDir, create: false, deps: { env } });
    engines.push(engine);
    const got = await createDirectClient(engine)['openclaw.recall']({ sessionId: SID });
    expect(got).toMatchObject({ logPath: log, exists: true, truncated: false });
    expect(got.records.map((r) => [r.line, r.outcome, r.reason])).toEqual([
      [1, 'injected', undefined],
      [5, 'timeout', 'timed out after 300 ms'],
    ]);
    expect(got.records[0]).toMatchObject({ promptSha256: 'ab'.repeat(32), promptPreview: 'Where does Priya keep the spare key?', hits: [{ citation: 'memory/house.md#L3-L4', startLine: 3, score: 0.82 }] });
    expect(got.malformed.map((m) => m.line)).toEqual([2, 3]);
    expect(got.malformed[0]?.error).toMatch(/^not JSON/);
    expect(got.malformed[1]?.error).toMatch(/^not a recall record: outcome/);
    // Nothing of Cairn's was added to OpenClaw's dir.
    expect(fs.readdirSync(stateDir).sort()).toEqual(['agents', 'openclaw.json']);
  });

  it('says there is no log for a session never recalled for, and refuses another agent it does not know', async () => {
    const stateDir = tmpDir();
    const engine = createEngine({ stateDir, deps: { env: { CAIRN_DATA_DIR: tmpDir() } } });
    engines.push(engine);
    const api = createDirectClient(engine);
    const got = await api['openclaw.recall']({ sessionId: SID });
    // A Cairn-created state dir keeps the log in its own folder (<state>/cairn).
    expect(got).toEqual({ logPath: path.join(stateDir, 'cairn', 'openclaw-recall', 'main', `${SID}.jsonl`), exists: false, records: [], malformed: [], truncated: false });
    await expect(api['openclaw.recall']({ sessionId: '../../etc/passwd' })).rejects.toMatchObject({ code: 'bad_request' });
  });
});

describe('readRecallLogFile (bounded)', () => {
  it('reads only the newest records of a log bigger than the window, numbered by their file line', () => {
    const file = path.join(tmpDir(), 'log.jsonl');
    const lines = Array.from({ length: 200 }, (_, i) => JSON.stringify(record({ ts: `2026-12-04T10:${String(i % 60).padStart(2, '0')}:00.000Z`, query: `q${i}` })));
    fs.writeFileSync(file, lines.join('\n') + '\n');
    const window = Buffer.byteLength(lines.slice(-10).join('\n') + '\n') + 5;
    const got = readRecallLogFile(file, window);
    expect(got.truncated).toBe(true);
    expect(got.malformed).toEqual([]);
    expect(got.records.map((r) => r.query)).toEqual(Array.from({ length: 10 }, (_, i) => `q${190 + i}`));
    expect(got.records[0]?.line).toBe(191);
  });

  it('leaves a line still being appended for the next read, and skips a huge line', () => {
    const file = path.join(tmpDir(), 'log.jsonl');
    const whole = JSON.stringify(record());
    fs.writeFileSync(file, `${whole}\n${'x'.repeat(600 * 1024)}\n${whole.slice(0, 40)}`);
    const got = readRecallLogFile(file);
    expect(got.records.map((r) => r.line)).toEqual([1]);
    expect(got.malformed).toEqual([{ line: 2, error: expect.stringMatching(/^line too long/) }]);
  });
});
