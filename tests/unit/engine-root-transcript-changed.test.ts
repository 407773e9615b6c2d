/**
 * A chat turn tells the bus, and the root's reactions follow: `chat.send` emits
 * `transcript.changed` (the sessions layer calls neither the index nor QMD), the memory index
 * marks the session dirty and says `memory.changed` when the sessions source is on, and the
 * turn is found by the next sessions search. With the sessions source off, the index ignores it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createEngine } from '../../electron/engine/engine';
import { createDirectClient } from '../../electron/engine/rpc/direct';
import type { TranscriptChangedEvent } from '../../shared/contract/transcript';
import { ScriptedLlm } from '../helpers/scripted-llm';
import { tmpDir } from '../helpers/tmp';

function engineWith(sources: string[]) {
  const dir = tmpDir();
  const llm = new ScriptedLlm(() => ({ text: 'Noted: the walrus-sundial.' }));
  const engine = createEngine({ stateDir: dir, deps: { now: () => new Date('2026-11-30T10:00:00Z'), createLlm: () => llm, createEmbedder: async () => null, env: {} } });
  fs.writeFileSync(path.join(dir, 'cairn.json'), JSON.stringify({ agents: { defaults: { memorySearch: { sources } } } }));
  engine.ctx.reloadConfig();
  return { engine, api: createDirectClient(engine) };
}

describe('transcript.changed', () => {
  it('a chat turn emits it, and the index (sessions source on) marks the session and finds the turn', async () => {
    const { engine, api } = engineWith(['memory', 'sessions']);
    try {
      const changed: TranscriptChangedEvent[] = [];
      api.on('transcript.changed', (e) => changed.push(e));
      const memoryChanged = new Promise<string[]>((resolve) => api.on('memory.changed', (e) => resolve(e.paths)));
      const res = await api['chat.send']({ text: 'remember the walrus-sundial' });
      const file = `sessions/${res.sessionId}.jsonl`;
      expect(changed).toEqual([{ agentId: 'main', sessionId: res.sessionId, path: file, reason: 'turn' }]);
      expect(await memoryChanged).toEqual([file]);
      const found = await api['search.query']({ query: 'walrus-sundial', source: 'sessions' });
      expect(found.results.map((r) => r.path)).toContain(file);
    } finally {
      await engine.dispose();
    }
  });

  it('with the sessions source off, the index does not hear of transcripts', async () => {
    const { engine, api } = engineWith(['memory']);
    try {
      const memoryChanged: string[][] = [];
      api.on('memory.changed', (e) => memoryChanged.push(e.paths));
      const transcript = new Promise<TranscriptChangedEvent>((resolve) => api.on('transcript.changed', resolve));
      await api['chat.send']({ text: 'remember the walrus-sundial' });
      expect((await transcript).reason).toBe('turn');
      // The reaction asked for the registry before this search did, so it has run by the answer.
      const found = await api['search.query']({ query: 'walrus-sundial' });
      expect(found.results).toEqual([]);
      expect(memoryChanged).toEqual([]);
    } finally {
      await engine.dispose();
    }
  });
});
