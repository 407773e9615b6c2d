/**
 * The node-llama-cpp glue without weights: a stand-in runtime/model/context and a stand-in
 * LlamaChat that answers the way LlamaChat.generateResponse does (response chunks, segments,
 * function calls, token meter, context-shift strategy, abort by throwing signal.reason).
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Llama, LlamaChat, LlamaContextSequence } from 'node-llama-cpp';
import { LlamaLlm } from '../../electron/engine/llm/llama';
import { ContextOverflowError, type StreamEvent } from '../../electron/engine/llm/types';
import { tmpDir } from '../helpers/tmp';

type Gen = (history: unknown[], opts: Record<string, any>, seq: FakeSeq) => Promise<unknown>; // eslint-disable-line @typescript-eslint/no-explicit-any

interface FakeSeq {
  meter: { usedInputTokens: number; usedOutputTokens: number };
  tokenMeter: { getState(): { usedInputTokens: number; usedOutputTokens: number } };
  contextTokens: number[];
}

function rig(gen: Gen) {
  const file = path.join(tmpDir(), 'chat.gguf');
  fs.writeFileSync(file, Buffer.concat([Buffer.from('GGUF'), Buffer.alloc(16)]));
  const log: string[] = [];
  const seq: FakeSeq = {
    meter: { usedInputTokens: 0, usedOutputTokens: 0 },
    tokenMeter: { getState: () => ({ ...seq.meter }) },
    contextTokens: [],
  };
  const context = { contextSize: 4096, getSequence: () => seq, dispose: async () => void log.push('context.dispose') };
  const model = {
    tokenize: (t: string) => t.split(/\s+/).filter(Boolean),
    createContext: async (o: { contextSize: unknown }) => (log.push(`createContext ${JSON.stringify(o.contextSize)}`), context),
    dispose: async () => void log.push('model.dispose'),
  };
  const llama = { loadModel: async (o: { modelPath: string }) => (log.push(`loadModel ${path.basename(o.modelPath)}`), model), dispose: async () => void log.push('llama.dispose') };
  const calls: { history: unknown[]; opts: Record<string, unknown> }[] = [];
  const chat = {
    sequence: seq,
    dispose: () => void log.push('chat.dispose'),
    generateResponse: async (history: unknown[], opts: Record<string, unknown>) => {
      calls.push({ history: structuredClone(history), opts });
      return gen(history, opts, seq);
    },
  };
  const llm = new LlamaLlm({
    modelPath: file,
    getLlama: async () => llama as unknown as Llama,
    createChat: (s: LlamaContextSequence) => (expect(s).toBe(seq), chat as unknown as LlamaChat),
  });
  return { llm, log, calls, seq };
}

describe('node-llama-cpp glue (stand-in runtime, no weights)', () => {
  it('streams thought and text chunks, maps function calls to tool calls, and computes usage from the token meter', async () => {
    const { llm, calls, log } = rig(async (_h, opts, seq) => {
      opts.onResponseChunk({ type: 'segment', segmentType: 'thought', text: 'look it up', tokens: [] });
      opts.onResponseChunk({ type: undefined, segmentType: undefined, text: 'Let me ', tokens: [] });
      opts.onResponseChunk({ type: undefined, segmentType: undefined, text: 'check.', tokens: [] });
      // 300 tokens in context before, 200 newly evaluated, 20 generated.
      seq.meter.usedInputTokens += 200;
      seq.meter.usedOutputTokens += 20;
      seq.contextTokens = new Array(520).fill(1);
      return {
        response: 'Let me check.',
        fullResponse: [{ type: 'segment', segmentType: 'thought', text: 'look it up', ended: true, raw: [] }, 'Let me ', 'check.'],
        functionCalls: [{ functionName: 'memory_search', params: { query: 'port' }, raw: [] }],
        lastEvaluation: {},
        metadata: { stopReason: 'functionCalls' },
      };
    });
    const events: StreamEvent[] = [];
    const res = await llm.chat({
      system: 'sys',
      messages: [{ role: 'user', content: 'which port?' }],
      tools: [{ name: 'memory_search', description: 'search', parameters: { type: 'object', properties: { query: { type: 'string', minLength: 1 } }, required: ['query'] } }],
      maxTokens: 64,
      onEvent: (e) => events.push(e),
    });
    expect(log).toEqual(['loadModel chat.gguf', 'createContext {"max":32768}']);
    expect(llm.contextWindow).toBe(4096);
    expect(calls[0]!.history).toEqual([{ type: 'system', text: 'sys' }, { type: 'user', text: 'which port?' }, { type: 'model', response: [] }]);
    expect(calls[0]!.opts.functions).toEqual({ memory_search: { description: 'search', params: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] } } });
    expect(calls[0]!.opts.maxTokens).toBe(64);
    expect(events.map((e) => e.type)).toEqual(['thinking', 'text', 'text', 'toolCall']);
    expect(res.stopReason).toBe('toolUse');
    expect(res.message.content.slice(0, 2)).toEqual([
      { type: 'thinking', thinking: 'look it up' },
      { type: 'text', text: 'Let me check.' },
    ]);
    expect(res.message.content[2]).toMatchObject({ type: 'toolCall', name: 'memory_search', arguments: { query: 'port' } });
    expect(res.usage).toEqual({ input: 200, output: 20, cacheRead: 300, cacheWrite: 0, totalTokens: 520 });
    expect(res.message).toMatchObject({ provider: 'llama', model: 'chat' });
    expect(await llm.countTokens('one two three')).toBe(3);
    await llm.dispose();
    expect(log.slice(2)).toEqual(['chat.dispose', 'context.dispose', 'model.dispose']);
  });

  it('turns node-llama-cpp\'s context shift into a ContextOverflowError instead of dropping history', async () => {
    const { llm } = rig(async (history, opts) => {
      const shift = opts.contextShift.strategy({ chatHistory: history, maxTokensCount: 3686, tokenizer: () => [], chatWrapper: {}, lastShiftMetadata: null });
      expect(shift.chatHistory).toEqual([{ type: 'model', response: [] }]);
      // LlamaChat throws signal.reason when its signal aborts (stopOnAbortSignal is off).
      if (opts.signal.aborted) throw opts.signal.reason;
      return { response: '', fullResponse: [], lastEvaluation: {}, metadata: { stopReason: 'eogToken' } };
    });
    const err = await llm.chat({ messages: [{ role: 'user', content: 'long' }] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ContextOverflowError);
    expect((err as Error).message).toMatch(/no longer fits the local model's context \(4096 tokens, 3686 usable\)/);
  });

  it('runs calls one at a time on the single sequence, and cancels through the signal', async () => {
    let running = 0;
    let maxRunning = 0;
    const { llm } = rig(async (_h, opts) => {
      running++;
      maxRunning = Math.max(maxRunning, running);
      await new Promise((r) => setTimeout(r, 5));
      running--;
      if (opts.signal.aborted) throw opts.signal.reason;
      return { response: 'ok', fullResponse: ['ok'], lastEvaluation: {}, metadata: { stopReason: 'maxTokens' } };
    });
    const ac = new AbortController();
    const a = llm.chat({ messages: [{ role: 'user', content: 'a' }] });
    const b = llm.chat({ messages: [{ role: 'user', content: 'b' }], signal: ac.signal });
    ac.abort();
    expect((await a).stopReason).toBe('length');
    await expect(b).rejects.toMatchObject({ name: 'AbortError' });
    expect(maxRunning).toBe(1);
  });
});
