import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createLlm, describeLlm, LlmConfigError } from '../../electron/engine/llm/factory';
import { OpenAiCompatibleLlm } from '../../electron/engine/llm/openai';
import { AnthropicLlm } from '../../electron/engine/llm/anthropic';
import { LlamaLlm } from '../../electron/engine/llm/llama';
import { LlmSchema } from '../../electron/engine/config/schema';
import { createEngine } from '../../electron/engine/engine';
import { createDirectClient } from '../../electron/engine/rpc/direct';
import { runDoctor } from '../../electron/engine/app/doctor';
import type { LLM } from '../../electron/engine/llm/types';
import { data, startFixture } from '../helpers/llm-fixture';
import { tmpDir, writeTree } from '../helpers/tmp';

const settings = (v: Record<string, unknown>) => LlmSchema.parse(v);
const opts = (env: NodeJS.ProcessEnv = {}) => ({ env, modelsDir: '/nonexistent/models', baseDir: '/state' });

describe('createLlm', () => {
  it('gives no model for provider "none" and says how to choose one', () => {
    expect(createLlm(settings({}), opts())).toBeUndefined();
    expect(describeLlm(settings({}), opts()).problem).toMatch(/no chat model configured.*cairn\.llm\.provider/);
  });

  it('builds an OpenAI-compatible client; a local server needs no key, api.openai.com does', () => {
    const local = createLlm(settings({ provider: 'openai', baseUrl: 'http://127.0.0.1:11434', model: 'qwen3:8b' }), opts());
    expect(local).toBeInstanceOf(OpenAiCompatibleLlm);
    expect(local?.model).toBe('qwen3:8b');
    expect(() => createLlm(settings({ provider: 'openai', model: 'gpt-4.1-mini' }), opts())).toThrow(/api\.openai\.com needs a key.*OPENAI_API_KEY/);
    expect(() => createLlm(settings({ provider: 'openai' }), opts())).toThrow(LlmConfigError);
    const hosted = describeLlm(settings({ provider: 'openai', model: 'gpt-4.1-mini' }), opts({ OPENAI_API_KEY: 'sk-x' }));
    expect(hosted).toMatchObject({ configured: true, keySource: 'env', keyEnv: 'OPENAI_API_KEY', baseUrl: 'https://api.openai.com' });
    expect(createLlm(settings({ provider: 'openai', model: 'gpt-4.1-mini' }), opts({ OPENAI_API_KEY: 'sk-x' }))?.contextWindow).toBe(1_047_576);
  });

  it('builds an Anthropic client with the key from config before env, and a default model', () => {
    expect(() => createLlm(settings({ provider: 'anthropic' }), opts())).toThrow(/ANTHROPIC_API_KEY/);
    const llm = createLlm(settings({ provider: 'anthropic' }), opts({ ANTHROPIC_API_KEY: 'k' }));
    expect(llm).toBeInstanceOf(AnthropicLlm);
    expect(llm).toMatchObject({ model: 'claude-sonnet-4-5', contextWindow: 200_000 });
    expect(describeLlm(settings({ provider: 'anthropic', apiKey: 'c' }), opts({ ANTHROPIC_API_KEY: 'k' })).keySource).toBe('config');
  });

  it('builds a local model lazily: a missing file is reported in status and on first use', async () => {
    const s = settings({ provider: 'llama', modelPath: 'models/chat.gguf', contextWindow: 4096 });
    const st = describeLlm(s, opts());
    expect(st).toMatchObject({ configured: false, modelFile: { path: path.resolve('/state/models/chat.gguf'), exists: false } });
    const llm = createLlm(s, opts());
    expect(llm).toBeInstanceOf(LlamaLlm);
    expect(llm?.contextWindow).toBe(4096);
    await expect(llm!.chat({ messages: [{ role: 'user', content: 'hi' }] })).rejects.toThrow(/local chat model not found/);
    expect(describeLlm(settings({ provider: 'llama' }), opts()).problem).toMatch(/cairn\.llm\.modelPath/);
  });
});

describe('llm channels and doctor', () => {
  it('llm.test sends one tiny request and reports the reply and latency; llm.status and doctor agree', async () => {
    const fx = await startFixture([
      { sse: [data({ choices: [{ index: 0, delta: { content: 'pong' }, finish_reason: 'stop' }] }), data('[DONE]')] },
      { status: 401, json: { error: { message: 'bad key' } } },
    ]);
    const dir = writeTree(tmpDir(), { 'cairn.json': JSON.stringify({ cairn: { llm: { provider: 'openai', baseUrl: fx.url, model: 'tiny', contextWindow: 8192 } } }) });
    const engine = createEngine({ stateDir: dir, deps: { env: {} } });
    const api = createDirectClient(engine);
    try {
      expect(await api['llm.status']({})).toMatchObject({ provider: 'openai', model: 'tiny', configured: true, baseUrl: fx.url, contextWindow: 8192, keySource: 'none' });
      const ok = await api['llm.test']({});
      expect(ok).toMatchObject({ ok: true, message: 'pong', provider: 'openai', model: 'tiny' });
      expect(ok.latencyMs).toBeGreaterThanOrEqual(0);
      expect(fx.requests[0]!.body).toMatchObject({ max_tokens: 16, temperature: 0, messages: [{ role: 'user', content: 'Reply with the single word: pong' }] });
      const bad = await api['llm.test']({});
      expect(bad).toMatchObject({ ok: false, errorKind: 'AuthError' });
      expect(bad.message).toMatch(/HTTP 401: bad key.*OPENAI_API_KEY/);
      const checks = await runDoctor(engine.ctx, { native: false });
      expect(checks.find((c) => c.id === 'llm')).toMatchObject({ status: 'ok', label: 'Chat model' });
      expect(checks.find((c) => c.id === 'llm')?.detail).toContain(`openai tiny, at ${fx.url}`);
    } finally {
      await engine.dispose();
    }
  });

  it('doctor warns with a hint when no model is configured; llm.download needs a modelUri', async () => {
    const engine = createEngine({ stateDir: tmpDir() });
    try {
      const check = (await runDoctor(engine.ctx, { native: false })).find((c) => c.id === 'llm');
      expect(check).toMatchObject({ status: 'warn', detail: 'no chat model configured' });
      expect(check?.hint).toMatch(/Settings → Model/);
      const api = createDirectClient(engine);
      expect(await api['llm.test']({})).toMatchObject({ ok: false });
      await expect(api['llm.download']({})).rejects.toMatchObject({ code: 'bad_request', message: expect.stringMatching(/modelUri is not set/) });
    } finally {
      await engine.dispose();
    }
  });

  it('uses and disposes an injected model', async () => {
    let disposed = 0;
    const fake: LLM = {
      provider: 'test',
      model: 'scripted',
      contextWindow: 1000,
      chat: async () => ({ message: { role: 'assistant', content: [{ type: 'text', text: 'pong' }] }, usage: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, totalTokens: 2 }, stopReason: 'stop' }),
      dispose: async () => void disposed++,
    };
    const engine = createEngine({ stateDir: tmpDir(), deps: { createLlm: () => fake } });
    const api = createDirectClient(engine);
    expect(await api['llm.status']({})).toMatchObject({ provider: 'test', configured: true, model: 'scripted', contextWindow: 1000 });
    expect(await api['llm.test']({})).toMatchObject({ ok: true, message: 'pong' });
    await engine.dispose();
    expect(disposed).toBe(1);
    expect(fs.existsSync(engine.ctx.stateDir)).toBe(true);
  });
});
