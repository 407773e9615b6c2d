/**
 * Valid but deep or mistyped data (issue 10 item 7): a 3,000-deep value in a transcript line,
 * `"content": 5` in an assistant message and a 100,000-deep cairn.json are reported and
 * skipped — the line stays in the file, the rest of the session and the CLI keep working.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { compact } from '../../electron/engine/compaction/compact';
import { CompactionSchema } from '../../electron/engine/config/schema';
import { loadConfig } from '../../electron/engine/config/load';
import { readTranscript } from '../../electron/engine/transcript/read';
import { buildContext } from '../../electron/engine/transcript/context';
import { updateSessionEntry } from '../../electron/engine/transcript/sessions-index';
import { runCairn } from '../helpers/cli';
import { serveStateDir } from '../helpers/server';
import { tmpDir } from '../helpers/tmp';

function nested(depth: number): string {
  return `${'['.repeat(depth)}1${']'.repeat(depth)}`;
}

const ts = (n: number) => `2025-03-01T00:00:0${n}.000Z`;

/** A Cairn-created state dir with session s1 holding one deep line and one mistyped line. */
function hostileSession(): { stateDir: string; file: string; lines: string[] } {
  const stateDir = tmpDir();
  fs.mkdirSync(path.join(stateDir, 'cairn'), { recursive: true });
  fs.writeFileSync(path.join(stateDir, 'cairn', 'state.json'), JSON.stringify({ createdBy: 'cairn', writable: true, createdAt: '2025-03-01T00:00:00.000Z' }));
  const dir = path.join(stateDir, 'agents', 'main', 'sessions');
  fs.mkdirSync(dir, { recursive: true });
  const lines = [
    JSON.stringify({ type: 'session', version: 3, id: 's1', timestamp: ts(0), cwd: '/x' }),
    JSON.stringify({ type: 'message', id: 'a0000001', parentId: null, timestamp: ts(1), message: { role: 'user', content: 'check db.internal:5432 please' } }),
    `{"type":"message","id":"a0000002","parentId":"a0000001","timestamp":"${ts(2)}","message":{"role":"assistant","content":[{"type":"toolCall","id":"c1","name":"read","arguments":{"x":${nested(3000)}}}]}}`,
    JSON.stringify({ type: 'message', id: 'a0000003', parentId: 'a0000002', timestamp: ts(3), message: { role: 'assistant', content: 5 } }),
    JSON.stringify({ type: 'message', id: 'a0000004', parentId: 'a0000003', timestamp: ts(4), message: { role: 'user', content: 'and then src/app.ts' } }),
    JSON.stringify({ type: 'message', id: 'a0000005', parentId: 'a0000004', timestamp: ts(5), message: { role: 'assistant', content: [{ type: 'text', text: 'Done.' }] } }),
  ];
  const file = path.join(dir, 's1.jsonl');
  fs.writeFileSync(file, `${lines.join('\n')}\n`);
  fs.writeFileSync(path.join(dir, 'sessions.json'), JSON.stringify({ 'agent:main:main': { sessionId: 's1', updatedAt: 1 } }));
  return { stateDir, file, lines };
}

describe('deep or mistyped transcript lines', () => {
  it('are reported as malformed with the reason, kept in the file and skipped in the context', () => {
    const { file } = hostileSession();
    const t = readTranscript(file);
    expect(t.malformed.map((m) => [m.line, m.error])).toEqual([
      [3, 'entry "a0000002" of type "message": value nested deeper than 200 levels'],
      [4, 'entry "a0000003" of type "message": "message.content" (role assistant) must be a string or an array of blocks, got number'],
    ]);
    expect(t.entries.map((e) => e.id)).toEqual(['a0000001', 'a0000004', 'a0000005']);
    expect(t.rawLines).toHaveLength(6);
    // the context still runs from the first message to the last (the damaged links fall back)
    expect(buildContext(t).messages.map((m) => m.role)).toEqual(['user', 'user', 'assistant']);
  });

  it('`cairn sessions show --json` prints the session and flags both lines instead of crashing', async () => {
    const { stateDir } = hostileSession();
    const r = await runCairn(['sessions', 'show', 's1', '--json', '--state-dir', stateDir]);
    expect(r.stderr).not.toContain('Maximum call stack');
    expect(r.code).toBe(0);
    const j = JSON.parse(r.stdout) as { total: number; malformed: { line: number; error: string }[] };
    expect(j.total).toBe(3);
    expect(j.malformed.map((m) => m.line)).toEqual([3, 4]);
  });

  it('`serve` answers sessions.entries with 200 and the malformed lines', async () => {
    const { stateDir } = hostileSession();
    const served = await serveStateDir(stateDir);
    try {
      const res = await fetch(`${served.server.url}/api/call/sessions.entries`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${served.server.token}` },
        body: JSON.stringify({ request: { sessionId: 's1', offset: 0, limit: 50 } }),
      });
      expect(res.status).toBe(200);
      const body = (await res.json()) as { ok: boolean; value: { malformed: { line: number }[] } };
      expect(body.ok).toBe(true);
      expect(body.value.malformed.map((m) => m.line)).toEqual([3, 4]);
    } finally {
      await served.close();
    }
  });

  it('compaction without a model works past the mistyped assistant message and leaves its line in place', async () => {
    const { file, lines } = hostileSession();
    const r = await compact({ file, settings: CompactionSchema.parse({}), contextWindowTokens: 100_000, all: true });
    expect(r.compacted).toBe(true);
    const after = fs.readFileSync(file, 'utf8').split('\n');
    expect(after.slice(0, lines.length)).toEqual(lines);
    if (r.compacted) expect(r.summary).toContain('db.internal:5432');
  });
});

describe('a 100,000-deep value in sessions.json', () => {
  it('is refused with the file named before anything is re-serialised, and the file is left as it was', async () => {
    const file = path.join(tmpDir(), 'sessions.json');
    const text = `{"agent:main:main":{"sessionId":"s1","updatedAt":1,"x":${nested(100_000)}}}`;
    fs.writeFileSync(file, text);
    await expect(updateSessionEntry(file, 's1', { compactionCount: 1 })).rejects.toThrow(`${file}: values nested deeper than 200 levels; not updated`);
    expect(fs.readFileSync(file, 'utf8')).toBe(text);
  });
});

describe('a 100,000-deep cairn.json', () => {
  function deepConfigDir(): string {
    const stateDir = tmpDir();
    fs.mkdirSync(path.join(stateDir, 'cairn'), { recursive: true });
    fs.writeFileSync(path.join(stateDir, 'cairn', 'state.json'), JSON.stringify({ createdBy: 'cairn', writable: true, createdAt: '2025-03-01T00:00:00.000Z' }));
    fs.writeFileSync(path.join(stateDir, 'cairn.json'), `{"agents":${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}}`);
    return stateDir;
  }

  it('loads as a warning and the defaults', () => {
    const stateDir = deepConfigDir();
    const c = loadConfig(stateDir);
    expect(c.warnings.map((w) => w.message)).toEqual([`${path.join(stateDir, 'cairn.json')}: values nested deeper than 64 levels; the file is ignored and defaults are used`]);
    expect(c.config.agents.defaults.compaction.keepRecentTokens).toBe(20000);
  });

  it('does not stop the CLI: `cairn doctor --json` runs and names the problem', async () => {
    const stateDir = deepConfigDir();
    const r = await runCairn(['doctor', '--json', '--state-dir', stateDir]);
    expect(r.stderr).not.toContain('Maximum call stack');
    expect(r.stdout).toContain('values nested deeper than 64 levels');
  });
});
