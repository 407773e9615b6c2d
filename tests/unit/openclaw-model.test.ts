/**
 * Issue 12.7: OpenClaw's own model config (openclaw.json agents.defaults.model.primary +
 * models.providers) is Cairn's chat model when cairn.llm chooses none — doctor names it, and
 * llm.test really talks to that provider's baseUrl with its key. Starts from the openclaw.json
 * OpenClaw 2026.9.6 wrote (tests/fixtures/openclaw-2026.9.6/legacy-export), with only the
 * provider's baseUrl pointed at a local fixture server.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runDoctor } from '../../electron/engine/app/doctor';
import { createEngine } from '../../electron/engine/engine';
import { createDirectClient } from '../../electron/engine/rpc/direct';
import { data, event, startFixture } from '../helpers/llm-fixture';
import { copyOpenClaw2026 } from '../helpers/openclaw-2026';

/** The parts of openclaw.json these tests change. */
interface OpenClawJson {
  models: { providers: Record<string, { baseUrl: string; api: string }> };
  agents: { defaults: { model: { primary: string } } };
}

/** The copied openclaw.json with `edit` applied (the provider URLs pointed at a fixture). */
function editOpenClawJson(stateDir: string, edit: (c: OpenClawJson) => void): void {
  const file = path.join(stateDir, 'openclaw.json');
  const c = JSON.parse(fs.readFileSync(file, 'utf8'));
  edit(c);
  fs.writeFileSync(file, JSON.stringify(c, null, 2));
}

describe("OpenClaw's model config as the chat model", () => {
  it('doctor reports the OpenAI-wire primary from openclaw.json, and llm.test reaches it with its key', async () => {
    const fx = await startFixture([{ sse: [data({ choices: [{ index: 0, delta: { content: 'pong' }, finish_reason: 'stop' }] }), data('[DONE]')] }]);
    const { stateDir } = copyOpenClaw2026();
    editOpenClawJson(stateDir, (c) => (c.models.providers.fake!.baseUrl = `${fx.url}/v1`));
    const engine = createEngine({ stateDir, deps: { env: {} } });
    try {
      const api = createDirectClient(engine);
      expect(await api['llm.status']({})).toMatchObject({ provider: 'openai', model: 'fake-1', configured: true, contextWindow: 40000, source: 'openclaw.json agents.defaults.model.primary "fake/fake-1"' });
      const check = (await runDoctor(engine.ctx, { native: false })).find((c) => c.id === 'llm');
      expect(check?.status).toBe('ok');
      expect(check?.detail).toContain('openai fake-1');
      expect(check?.detail).toContain('from openclaw.json agents.defaults.model.primary "fake/fake-1"');
      expect(check?.detail).not.toContain('no chat model configured');
      expect(await api['llm.test']({})).toMatchObject({ ok: true, message: 'pong', model: 'fake-1' });
      expect(fx.requests[0]).toMatchObject({ url: '/v1/chat/completions', body: { model: 'fake-1' } });
      expect(fx.requests[0]!.headers.authorization).toBe('Bearer fake-local-key');
    } finally {
      await engine.dispose();
    }
  });

  it('an Anthropic-wire primary (fakeanth/fake-anth-1) is used through the Anthropic client', async () => {
    const fx = await startFixture([
      {
        sse: [
          event({ type: 'message_start', message: { id: 'm', role: 'assistant', content: [], usage: { input_tokens: 5, output_tokens: 0 } } }),
          event({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }),
          event({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'pong' } }),
          event({ type: 'content_block_stop', index: 0 }),
          event({ type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 1 } }),
          event({ type: 'message_stop' }),
        ],
      },
    ]);
    const { stateDir } = copyOpenClaw2026();
    editOpenClawJson(stateDir, (c) => {
      c.agents.defaults.model.primary = 'fakeanth/fake-anth-1';
      c.models.providers.fakeanth!.baseUrl = fx.url;
    });
    const engine = createEngine({ stateDir, deps: { env: {} } });
    try {
      const api = createDirectClient(engine);
      expect(await api['llm.status']({})).toMatchObject({ provider: 'anthropic', model: 'fake-anth-1', configured: true });
      expect(await api['llm.test']({})).toMatchObject({ ok: true, message: 'pong' });
      expect(fx.requests[0]).toMatchObject({ url: '/v1/messages', body: { model: 'fake-anth-1' } });
      expect(fx.requests[0]!.headers['x-api-key']).toBe('fake-local-key');
    } finally {
      await engine.dispose();
    }
  });

  it('a provider wire Cairn cannot speak is named in doctor; cairn.llm always wins over openclaw.json', async () => {
    const { stateDir } = copyOpenClaw2026();
    editOpenClawJson(stateDir, (c) => (c.models.providers.fake!.api = 'google-generative-ai'));
    let engine = createEngine({ stateDir, deps: { env: {} } });
    try {
      const check = (await runDoctor(engine.ctx, { native: false })).find((c) => c.id === 'llm');
      expect(check).toMatchObject({ status: 'warn' });
      expect(check?.detail).toContain('models.providers.fake.api "google-generative-ai" is not a wire Cairn speaks');
    } finally {
      await engine.dispose();
    }
    fs.writeFileSync(path.join(stateDir, 'cairn.json'), JSON.stringify({ cairn: { llm: { provider: 'openai', baseUrl: 'http://127.0.0.1:9', model: 'mine' } } }));
    engine = createEngine({ stateDir, deps: { env: {} } });
    try {
      expect(await createDirectClient(engine)['llm.status']({})).toMatchObject({ provider: 'openai', model: 'mine' });
      expect((await createDirectClient(engine)['llm.status']({})).source).toBeUndefined();
    } finally {
      await engine.dispose();
    }
  });
});
