/**
 * A tool call by the real local chat model (SmolLM2-135M-Instruct through node-llama-cpp,
 * from tests/helpers/test-models.ts) reaching Cairn's tool loop: `chat.send` on a real engine
 * and state dir, the model's JSON-grammar-constrained call to `memory_search` runs the real
 * search over the memory files, the result goes back to the model, and the transcript records
 * the call, its result (same id) and the reply. Greedy decoding makes the model's choice
 * repeatable; the test asserts the protocol and the files, never the wording.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createEngine } from '../../electron/engine/engine';
import { createDirectClient } from '../../electron/engine/rpc/direct';
import { LlamaLlm } from '../../electron/engine/llm/llama';
import type { ChatEventPayload } from '../../shared/types/chat';
import { testModel } from '../helpers/test-models';
import { tmpDir, writeTree } from '../helpers/tmp';

const chat = testModel('chat');
type Line = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

describe.skipIf(!chat.path)(`the tool loop with the local model${chat.skip}`, () => {
  it('runs the memory_search the model asks for and answers its result; the transcript pairs the call and the result', async () => {
    const dir = tmpDir();
    const llm = new LlamaLlm({ modelPath: chat.path!, contextSize: 4096, threads: 1, maxOutputTokens: 48 });
    const engine = createEngine({ stateDir: dir, deps: { now: () => new Date('2026-11-30T10:00:00Z'), createLlm: () => llm, createEmbedder: async () => null, env: {} } });
    writeTree(path.join(dir, 'workspace'), {
      'MEMORY.md': '# Memory\n- Prefers tea over coffee\n',
      'memory/2026-11-20.md': '- The router admin password is kept in the blue binder on the shelf\n',
    });
    const api = createDirectClient(engine);
    const seen: ChatEventPayload[] = [];
    api.on('chat.event', (p) => seen.push(p));
    try {
      const res = await api['chat.send']({ text: 'Use memory_search to find where the router admin password is kept.' });
      const events = seen.map((p) => p.event);
      const calls = events.filter((e) => e.kind === 'toolCall');
      const results = events.filter((e) => e.kind === 'toolResult');
      // The model called a tool; the loop ran each call once and answered with its result.
      expect(calls.length).toBeGreaterThan(0);
      expect(results.map((r) => r.id)).toEqual(calls.map((c) => c.id));
      expect(calls.every((c) => ['read', 'write', 'edit', 'memory_search', 'memory_get'].includes(c.name))).toBe(true);
      const search = calls.find((c) => c.name === 'memory_search');
      expect(search).toBeDefined();
      expect(typeof search!.arguments.query).toBe('string');
      expect(results.find((r) => r.id === search!.id)).toMatchObject({ isError: false });
      expect(events.at(-1)).toMatchObject({ kind: 'done' });

      // On disk: the assistant's call, then a toolResult with the same id holding the real
      // search output, then the reply the model gave after reading it.
      const file = path.join(dir, 'agents', 'main', 'sessions', `${res.sessionId}.jsonl`);
      const lines = fs.readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Line);
      const messages = lines.filter((l) => l.type === 'message').map((l) => l.message);
      const callAt = messages.findIndex((m) => m.role === 'assistant' && m.content.some((b: Line) => b.type === 'toolCall' && b.id === search!.id));
      expect(callAt).toBeGreaterThan(0);
      const result = messages.slice(callAt + 1).find((m) => m.role === 'toolResult' && m.toolCallId === search!.id);
      expect(result).toBeDefined();
      // The real search's answer (which notes it finds depends on the query the model chose:
      // SmolLM2-135M often searches for a file name), in the shape memory_search returns.
      const output = JSON.parse(result.content[0].text) as { results: unknown[]; mode: string };
      expect(Array.isArray(output.results)).toBe(true);
      expect(output.mode).toMatch(/fts-only|hybrid|vector/);
      expect(messages.at(-1)).toMatchObject({ role: 'assistant' });
    } finally {
      await engine.dispose();
      await llm.dispose();
    }
  }, 900_000);
});
