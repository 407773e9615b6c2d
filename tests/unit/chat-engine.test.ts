import fs from 'node:fs';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createEngine } from '../../electron/engine/engine';
import { createDirectClient } from '../../electron/engine/rpc/direct';
import { chatRepl } from '../../electron/cli/commands/chat';
import { newOpId } from '../../shared/client';
import { appendLinesDurable } from '../../electron/engine/transcript/append';
import type { ChatEventPayload } from '../../shared/types/chat';
import { ScriptedLlm, type Handler } from '../helpers/scripted-llm';
import { tmpDir, writeTree } from '../helpers/tmp';

const NOW = new Date('2026-11-30T10:00:00Z');

function engineWith(handler: Handler | undefined, files: Record<string, string> = {}) {
  const dir = tmpDir();
  const llm = handler ? new ScriptedLlm(handler) : undefined;
  // First open creates the state dir (writable, Cairn's own); then the memory files.
  const engine = createEngine({ stateDir: dir, deps: { now: () => NOW, createLlm: () => llm, createEmbedder: async () => null, env: {} } });
  writeTree(path.join(dir, 'workspace'), files);
  return { dir, engine, llm, api: createDirectClient(engine) };
}

describe('chat.send', () => {
  it('says "no model configured" (unavailable) when there is no model', async () => {
    const { engine, api } = engineWith(undefined);
    try {
      await expect(api['chat.send']({ text: 'hi' })).rejects.toMatchObject({ code: 'unavailable', message: expect.stringMatching(/^no model configured/) });
    } finally {
      await engine.dispose();
    }
  });

  it('opens with MEMORY.md and the notes of today and yesterday, answers with memory_search, and streams events with the opId', async () => {
    const { dir, engine, llm, api } = engineWith(
      (req, n) => (n === 0 ? { toolCalls: [{ name: 'memory_search', arguments: { query: 'router admin password location' } }] } : { text: 'It is in the blue binder.' }),
      {
        'MEMORY.md': '# Memory\n- Prefers tea over coffee\n',
        'memory/2026-11-30.md': '- Today: planned the Lisbon trip\n',
        'memory/2026-11-29.md': '- Yesterday: fixed the bike\n',
        'memory/2026-11-20.md': '- The router admin password is kept in the blue binder on the shelf\n',
      },
    );
    const seen: ChatEventPayload[] = [];
    api.on('chat.event', (p) => seen.push(p));
    try {
      const opId = newOpId();
      const res = await api['chat.send']({ text: 'Where is the router password?' }, { opId });
      expect(res.reply).toBe('It is in the blue binder.');
      const system = llm!.requests[0]!.system!;
      expect(system).toContain('Prefers tea over coffee');
      expect(system).toContain('planned the Lisbon trip');
      expect(system).toContain('fixed the bike');
      expect(system).not.toContain('blue binder');
      expect(llm!.requests[0]!.tools!.map((t) => t.name)).toEqual(['read', 'write', 'edit', 'memory_search', 'memory_get']);
      // The search result reached the model as a tool result citing the old daily note.
      const toolResult = llm!.requests[1]!.messages.find((m) => m.role === 'toolResult');
      expect(JSON.stringify(toolResult)).toMatch(/memory\/2026-11-20\.md#L1-L\d/);
      expect(seen.every((p) => p.opId === opId && p.sessionId === res.sessionId)).toBe(true);
      expect(seen.map((p) => p.event.kind)).toContain('toolResult');
      const file = path.join(dir, 'agents', 'main', 'sessions', `${res.sessionId}.jsonl`);
      expect(fs.existsSync(file)).toBe(true);
      const index = JSON.parse(fs.readFileSync(path.join(dir, 'agents', 'main', 'sessions', 'sessions.json'), 'utf8'));
      expect(index[res.sessionId]).toMatchObject({ sessionId: res.sessionId, sessionFile: file });
      // Another writer appends between turns: the next turn sees it (the held handle is not reused).
      const lastId = (JSON.parse(fs.readFileSync(file, 'utf8').trim().split('\n').at(-1)!) as { id: string }).id;
      appendLinesDurable(file, [JSON.stringify({ type: 'custom_message', id: 'ab12cd34', parentId: lastId, timestamp: NOW.toISOString(), customType: 'note', content: 'note from elsewhere', display: true })]);
      // The same session continues.
      const again = await api['chat.send']({ sessionId: res.sessionId, text: 'thanks' });
      expect(again.sessionId).toBe(res.sessionId);
      expect(llm!.requests[2]!.messages.filter((m) => m.role === 'user')).toHaveLength(3);
      expect(JSON.stringify(llm!.requests[2]!.messages)).toContain('note from elsewhere');
      // And a third turn on the unchanged file continues from the held handle.
      await api['chat.send']({ sessionId: res.sessionId, text: 'bye' });
      expect(llm!.requests[3]!.messages.filter((m) => m.role === 'user').map((m) => JSON.stringify(m.content))).toEqual([
        JSON.stringify('Where is the router password?'),
        JSON.stringify('note from elsewhere'),
        JSON.stringify('thanks'),
        JSON.stringify('bye'),
      ]);
    } finally {
      await engine.dispose();
    }
  });

  it('reports a model that cannot be used (bad key, missing local file) as unavailable', async () => {
    const dir = tmpDir();
    writeTree(dir, {});
    const engine = createEngine({ stateDir: dir, deps: { env: {} } });
    fs.writeFileSync(path.join(dir, 'cairn.json'), JSON.stringify({ cairn: { llm: { provider: 'llama', modelPath: 'cairn/models/none.gguf' } } }));
    engine.ctx.reloadConfig();
    const api = createDirectClient(engine);
    try {
      await expect(api['chat.send']({ text: 'hi' })).rejects.toMatchObject({ code: 'unavailable', message: expect.stringMatching(/local chat model not found/) });
      expect(fs.readdirSync(path.join(dir, 'agents', 'main', 'sessions'))).toEqual([]);
    } finally {
      await engine.dispose();
    }
  });

  it('refuses an unknown session and a read-only state dir', async () => {
    const { engine, api } = engineWith(() => ({ text: 'x' }));
    try {
      await expect(api['chat.send']({ sessionId: 'nope', text: 'hi' })).rejects.toMatchObject({ code: 'not_found' });
      await expect(api['chat.send']({ text: '/compact' })).rejects.toMatchObject({ code: 'bad_request', message: expect.stringMatching(/needs a session/) });
      await api['state.setWritable']({ writable: false });
      await expect(api['chat.send']({ text: 'hi' })).rejects.toMatchObject({ code: 'read_only' });
      await expect(api['chat.newSession']({})).rejects.toMatchObject({ code: 'read_only' });
    } finally {
      await engine.dispose();
    }
  });

  it('cancels a running turn through op.cancel', async () => {
    let release: () => void = () => {};
    const started = new Promise<void>((r) => (release = r));
    const { engine, api } = engineWith(async (req) => {
      release();
      await new Promise((_, reject) => req.signal?.addEventListener('abort', () => reject(Object.assign(new Error('aborted'), { name: 'AbortError' }))));
      return { text: 'never' };
    });
    try {
      const ac = new AbortController();
      const p = api['chat.send']({ text: 'long one' }, { signal: ac.signal });
      await started;
      ac.abort();
      await expect(p).rejects.toMatchObject({ code: 'cancelled' });
    } finally {
      await engine.dispose();
    }
  });
});

describe('cairn chat REPL', () => {
  it('streams replies, keeps the session, runs /compact and exits on /exit', async () => {
    const { engine, llm, api } = engineWith((req) => {
      if (!req.tools?.length) return { text: '## Decisions\n- summary' };
      const last = req.messages[req.messages.length - 1]!;
      return last.role === 'user' && JSON.stringify(last).includes('list') ? { toolCalls: [{ name: 'read', arguments: { path: 'missing.md' } }] } : { text: 'Hello there.' };
    });
    const input = new PassThrough();
    let out = '';
    const info: string[] = [];
    try {
      const done = chatRepl(api, { input, out: (s) => (out += s), info: (s) => info.push(s) });
      input.write('hi\n');
      input.write('list my files\n');
      input.write('/compact keep names\n');
      input.write('/exit\n');
      input.write('never sent\n');
      expect(await done).toBe(0);
      expect(out).toBe('Hello there.\nHello there.\n');
      expect(info[0]).toBe('cairn chat — scripted script-1');
      expect(info.find((l) => l.startsWith('[session '))).toBeDefined();
      expect(info).toContain('[tool] read({"path":"missing.md"})');
      expect(info.find((l) => l.startsWith('[tool] read failed: missing.md: no such file'))).toBeDefined();
      expect(info.find((l) => /^\[compact(ed|ion) \(manual\)/.test(l))).toBeDefined();
      expect(llm!.requests.some((r) => JSON.stringify(r.messages).includes('never sent'))).toBe(false);
    } finally {
      await engine.dispose();
    }
  });

  it('names a session that does not exist and exits 1', async () => {
    const { engine, api } = engineWith(() => ({ text: 'Hello there.' }));
    const input = new PassThrough();
    const info: string[] = [];
    try {
      const done = chatRepl(api, { sessionId: 'demo', input, out: () => {}, info: (s) => info.push(s) });
      input.end('hello\n');
      expect(await done).toBe(1);
      expect(info.some((l) => /^error: no session demo in /.test(l))).toBe(true);
    } finally {
      await engine.dispose();
    }
  });

  it('reports "no model configured" and exits 1 at end of input', async () => {
    const { engine, api } = engineWith(undefined);
    const input = new PassThrough();
    const info: string[] = [];
    try {
      const done = chatRepl(api, { input, out: () => {}, info: (s) => info.push(s) });
      input.end('hello\n');
      expect(await done).toBe(1);
      expect(info[0]).toMatch(/^cairn chat — no model configured/);
      expect(info.some((l) => /^error: no model configured/.test(l))).toBe(true);
    } finally {
      await engine.dispose();
    }
  });
});
