/**
 * Sessions in OpenClaw's SQLite store are searchable with the sessions source, as JSONL ones
 * are: s1-alpha's compaction summary (event seq 43, line 44) is the only place the phrase
 * "marmalade-otter" occurs; the hit cites `sessions/s1-alpha.jsonl#L44…`, and `cairn get`
 * opens that citation from the database. A new event OpenClaw appends is found after the
 * next sync; nothing in OpenClaw's dir but the test's own cairn.json changes.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { createEngine } from '../../electron/engine/engine';
import { createDirectClient } from '../../electron/engine/rpc/direct';
import { FakeEmbedder } from '../../testkit/fake-embedder';
import { cairnInProcess as cli, sessionHitFor } from '../helpers/openclaw-2026';
import { copyOpenClawState } from '../helpers/openclaw-state';

describe("search over OpenClaw's SQLite sessions", () => {
  it('finds a compaction summary held only in the database, cites its line, and `cairn get` opens the citation', async () => {
    const oc = copyOpenClawState();
    fs.writeFileSync(path.join(oc.stateDir, 'cairn.json'), JSON.stringify({ agents: { defaults: { memorySearch: { sources: ['memory', 'sessions'] } } } }));
    const before = oc.tree();
    const engine = createEngine({ stateDir: oc.stateDir, deps: { createEmbedder: async () => new FakeEmbedder() } });
    let citation: string;
    try {
      const api = createDirectClient(engine);
      const hit = await sessionHitFor(api, 'marmalade-otter');
      expect(hit).toMatchObject({ path: 'sessions/s1-alpha.jsonl', startLine: 44, endLine: 44 });
      citation = hit.citation;
      // OpenClaw appends an event: the next sync indexes it.
      const db = new Database(oc.dbFile);
      const event = { type: 'message', id: 'live-1', parentId: null, timestamp: '2026-12-02T10:00:00.000Z', message: { role: 'user', content: [{ type: 'text', text: 'the quokka-zeppelin plan' }], timestamp: 1 } };
      db.prepare("INSERT INTO transcript_events (session_id, seq, event_json, created_at) VALUES ('s2-beta', 29, ?, 1)").run(JSON.stringify(event));
      db.close();
      await api['index.sync']({});
      const live = await api['search.query']({ query: 'quokka-zeppelin', source: 'sessions' });
      const fresh = live.results.find((r) => r.snippet.includes('quokka-zeppelin'));
      expect(fresh?.path).toBe('sessions/s2-beta.jsonl');
      expect(fresh?.endLine).toBeGreaterThanOrEqual(30);
    } finally {
      await engine.dispose();
    }
    expect(citation).toMatch(/^sessions\/s1-alpha\.jsonl#L44(-L44)?$/);
    const got = await cli(['get', citation, '--state-dir', oc.stateDir]);
    expect(got.code).toBe(0);
    expect(got.stdout).toMatch(/^L44 Summary: .*marmalade-otter/m);
    const after = oc.tree();
    after.delete(path.join('agents', 'main', 'agent', 'openclaw-agent.sqlite')); // the test's own insert
    before.delete(path.join('agents', 'main', 'agent', 'openclaw-agent.sqlite'));
    expect(after).toEqual(before);
  });
});
