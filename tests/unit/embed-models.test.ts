import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createEngine } from '../../electron/engine/engine';
import { runDoctor } from '../../electron/engine/app/doctor';
import type { ModelDownloadProgress } from '../../shared/contract';
import { serveSlowBytes, startFixture } from '../helpers/http-fixture';
import { tmpDir } from '../helpers/tmp';

function engineWith(env: NodeJS.ProcessEnv = {}) {
  return createEngine({ stateDir: tmpDir(), deps: { env } });
}

describe('models.status and the doctor check', () => {
  it('reports the auto choice and why, without loading or downloading anything', async () => {
    const engine = engineWith({});
    try {
      const r = await engine.dispatcher.dispatch('models.status', {});
      expect(r.ok).toBe(true);
      const s = (r as { value: import('../../shared/contract').ModelsStatus }).value;
      expect(s.configuredProvider).toBe('auto');
      expect(s.candidates.map((c) => c.provider)).toEqual(['local', 'openai', 'gemini', 'voyage', 'static']);
      expect(s.selected?.provider).toBe('static');
      expect(s.defaultModelUri).toMatch(/^hf:ggml-org\/embeddinggemma/);
      expect(s.defaultModelPath).toBeUndefined();
      expect(s.files).toEqual([]);
      const checks = await runDoctor(engine.ctx, { native: false });
      const c = checks.find((x) => x.id === 'embedder');
      expect(c).toMatchObject({ status: 'ok', detail: expect.stringMatching(/^auto picks static .*skipped local: no local model/) });
      expect(c?.hint).toMatch(/download the recommended local model/);
      expect(fs.existsSync(s.modelsDir)).toBe(false); // nothing written
    } finally {
      await engine.dispose();
    }
  });

  it('names the key that makes auto pick a remote provider', async () => {
    const engine = engineWith({ VOYAGE_API_KEY: 'pa-x' });
    try {
      const c = (await runDoctor(engine.ctx, { native: false })).find((x) => x.id === 'embedder');
      expect(c?.detail).toMatch(/auto picks voyage \(key from VOYAGE_API_KEY\)/);
    } finally {
      await engine.dispose();
    }
  });

  it('warns when the configured provider cannot work', async () => {
    const engine = engineWith({});
    try {
      fs.writeFileSync(path.join(engine.ctx.stateDir, 'cairn.json'), JSON.stringify({ agents: { defaults: { memorySearch: { provider: 'openai' } } } }));
      engine.ctx.reloadConfig();
      const c = (await runDoctor(engine.ctx, { native: false })).find((x) => x.id === 'embedder');
      expect(c).toMatchObject({ status: 'warn', detail: expect.stringMatching(/provider "openai" is unavailable \(openai: no API key \(OPENAI_API_KEY/) });
    } finally {
      await engine.dispose();
    }
  });
});

describe('models.download', () => {
  it('downloads on request with models.progress events carrying the opId', async () => {
    const fx = await serveSlowBytes(400_000);
    const engine = engineWith({});
    const events: ModelDownloadProgress[] = [];
    engine.events.on('models.progress', (p) => events.push(p));
    try {
      const uri = `${fx.url}/x/embed.gguf`;
      const r = await engine.dispatcher.dispatch('models.download', { uri }, 'op-1');
      expect(r).toMatchObject({ ok: true, value: { uri, path: path.join(engine.ctx.paths().modelsDir, 'embed.gguf') } });
      expect(events.length).toBeGreaterThan(0);
      expect(events.every((e) => e.opId === 'op-1' && e.uri === uri && e.totalBytes === 400_000)).toBe(true);
      const s = await engine.dispatcher.dispatch('models.status', {});
      expect((s as { value: { files: unknown[] } }).value.files).toEqual([{ name: 'embed.gguf', bytes: 400_000 }]);
    } finally {
      await engine.dispose();
    }
  });

  it('is cancelled by op.cancel, and an unreachable host is a clear "unavailable" error', async () => {
    const fx = await serveSlowBytes(5_000_000);
    const engine = engineWith({});
    try {
      const off = engine.events.on('models.progress', () => {
        off();
        void engine.dispatcher.dispatch('op.cancel', { opId: 'op-2' });
      });
      const r = await engine.dispatcher.dispatch('models.download', { uri: `${fx.url}/x/big.gguf` }, 'op-2');
      expect(r).toMatchObject({ ok: false, error: { code: 'cancelled' } });
      const closed = await startFixture(() => ({ text: '' }));
      const url = closed.url;
      await closed.close();
      const r2 = await engine.dispatcher.dispatch('models.download', { uri: `${url}/x/y.gguf` });
      expect(r2).toMatchObject({ ok: false, error: { code: 'unavailable', message: expect.stringMatching(/cannot reach/) } });
    } finally {
      await engine.dispose();
    }
  });
});
