/**
 * OpenClaw's secret references in `openclaw.json`, as Cairn reads them: an env reference for
 * the embedder's key reaches the embedding request (a real local HTTP server), a file
 * reference resolves by JSON pointer, a missing variable or an exec provider is a warning
 * naming the key path (never a secret) and the key stays unset, and nothing resolved is shown
 * in the settings view or written to disk.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createEngine } from '../../electron/engine/engine';
import { createDirectClient } from '../../electron/engine/rpc/direct';
import { runDoctor } from '../../electron/engine/app/doctor';
import { createEmbedderForSettings } from '../../electron/engine/embed/factory';
import { openClawModel } from '../../electron/engine/llm/openclaw-model';
import { startFixture, type RecordedRequest } from '../helpers/http-fixture';
import { tmpDir, writeTree } from '../helpers/tmp';

const openaiReply = (req: RecordedRequest) => {
  const input = (req.body as { input: string[] }).input;
  return { json: { object: 'list', model: 'm', data: input.map((_, index) => ({ object: 'embedding', index, embedding: [1, 0, 0, 0] })) } };
};

function stateWith(openclaw: unknown): string {
  return writeTree(tmpDir(), { 'openclaw.json': JSON.stringify(openclaw), 'workspace/MEMORY.md': '# m\n' });
}

describe('secret references in openclaw.json', () => {
  it('an env reference for memorySearch.remote.apiKey reaches the embedding request, and is never shown or written', async () => {
    const fx = await startFixture(openaiReply);
    const remote = { baseUrl: `${fx.url}/v1`, apiKey: { source: 'env', provider: 'default', id: 'CAIRN_TEST_EMBED_KEY' }, headers: { 'x-team': '${CAIRN_TEST_TEAM}' } };
    const state = stateWith({ agents: { defaults: { memorySearch: { provider: 'openai', model: 'my-model', remote } } } });
    const before = fs.readFileSync(path.join(state, 'openclaw.json'), 'utf8');
    const engine = createEngine({ stateDir: state, deps: { env: { CAIRN_TEST_EMBED_KEY: 'sk-from-env', CAIRN_TEST_TEAM: 'blue' } } });
    try {
      const settings = engine.ctx.config().config.memory.search;
      const embedder = await createEmbedderForSettings(settings, { modelsDir: tmpDir(), env: {} });
      await embedder?.embed(['hello']);
      expect(fx.requests.length).toBeGreaterThan(0);
      expect(fx.requests.every((r) => r.headers.authorization === 'Bearer sk-from-env' && r.headers['x-team'] === 'blue')).toBe(true);
      expect(engine.ctx.config().warnings).toEqual([]);
      const view = await createDirectClient(engine)['config.get']({});
      expect(JSON.stringify(view)).not.toContain('sk-from-env');
      expect(fs.readFileSync(path.join(state, 'openclaw.json'), 'utf8')).toBe(before);
      await embedder?.dispose();
    } finally {
      await engine.dispose();
    }
  });

  it('"${VAR}" in models.providers.*.apiKey and a file provider reference resolve for the chat model', async () => {
    const keys = path.join(tmpDir(), 'keys.json');
    fs.writeFileSync(keys, JSON.stringify({ providers: { anth: 'sk-from-file' } }));
    const providers = {
      a: { baseUrl: 'http://127.0.0.1:1/v1', apiKey: '${CAIRN_TEST_LLM_KEY}', models: [{ id: 'm' }] },
      b: { baseUrl: 'http://127.0.0.1:1', api: 'anthropic-messages', apiKey: { source: 'file', provider: 'vault', id: '/providers/anth' }, models: [{ id: 'm' }] },
    };
    const state = stateWith({ secrets: { providers: { vault: { source: 'file', path: keys } } }, models: { providers } });
    const engine = createEngine({ stateDir: state, deps: { env: { CAIRN_TEST_LLM_KEY: 'sk-llm' } } });
    try {
      const cfg = engine.ctx.config().config;
      const pick = (primary: string) => openClawModel({ ...cfg, agents: { ...cfg.agents, defaults: { ...cfg.agents.defaults, model: { primary } } } } as typeof cfg);
      expect(pick('a/m')).toMatchObject({ settings: { apiKey: 'sk-llm' } });
      expect(pick('b/m')).toMatchObject({ settings: { apiKey: 'sk-from-file', provider: 'anthropic' } });
      expect(engine.ctx.config().warnings).toEqual([]);
    } finally {
      await engine.dispose();
    }
  });

  it('a missing env var or an exec provider is a warning naming the key path and the reference; the key stays unset', async () => {
    const remote = { apiKey: '${CAIRN_TEST_NOT_SET}' };
    const providers = { x: { baseUrl: 'http://127.0.0.1:1/v1', apiKey: { source: 'exec', provider: 'vault', id: 'openai/key' }, models: [] } };
    const state = stateWith({ secrets: { providers: { vault: { source: 'exec', command: '/bin/false' } } }, agents: { defaults: { memorySearch: { remote } } }, models: { providers } });
    const engine = createEngine({ stateDir: state, deps: { env: {} } });
    try {
      const loaded = engine.ctx.config();
      const messages = loaded.warnings.map((w) => w.message);
      expect(messages).toContainEqual(expect.stringMatching(/^memory\.search\.remote\.apiKey: the secret reference env:default:CAIRN_TEST_NOT_SET cannot be resolved: environment variable CAIRN_TEST_NOT_SET is not set/));
      expect(messages).toContainEqual(expect.stringMatching(/^models\.providers\.x\.apiKey: .*exec:vault:openai\/key.*does not do/));
      expect(loaded.config.memory.search.remote.apiKey).toBeUndefined();
      const doctor = await runDoctor(engine.ctx, { native: false });
      expect(JSON.stringify(doctor)).toContain('memory.search.remote.apiKey');
    } finally {
      await engine.dispose();
    }
  });
});
