/** `cairn models status|download` through the real executable. */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCairn } from '../helpers/cli';
import { startFixture } from '../helpers/http-fixture';
import { tmpDir } from '../helpers/tmp';

const noKeys = { OPENAI_API_KEY: '', GEMINI_API_KEY: '', GOOGLE_API_KEY: '', VOYAGE_API_KEY: '' };

describe('cairn models', () => {
  it('status says which embedder is used and why, in text and JSON', async () => {
    const dir = tmpDir();
    const text = await runCairn(['models', 'status', '--state-dir', dir], { env: noKeys });
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^provider: auto\nembedder: static /);
    expect(text.stdout).toMatch(/recommended model: hf:ggml-org\/embeddinggemma.*not downloaded: cairn models download/);
    const json = await runCairn(['models', 'status', '--json', '--state-dir', dir], { env: { ...noKeys, GEMINI_API_KEY: 'g' } });
    expect(JSON.parse(json.stdout)).toMatchObject({ configuredProvider: 'auto', selected: { provider: 'gemini', detail: 'key from GEMINI_API_KEY' } });
  });

  it('download fetches a model into cairn/models and status then lists it', async () => {
    const body = Buffer.alloc(300_000, 3);
    const fx = await startFixture(() => ({ status: 200, headers: { 'content-type': 'application/octet-stream' }, text: body.toString('latin1') }));
    const dir = tmpDir();
    const r = await runCairn(['models', 'download', `${fx.url}/m/e5-tiny.gguf`, '--json', '--state-dir', dir], { env: noKeys });
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as { path: string };
    expect(out.path).toBe(path.join(dir, 'cairn', 'models', 'e5-tiny.gguf'));
    expect(fs.statSync(out.path).size).toBe(300_000);
    const s = await runCairn(['models', 'status', '--json', '--state-dir', dir], { env: noKeys });
    expect(JSON.parse(s.stdout).files).toEqual([{ name: 'e5-tiny.gguf', bytes: 300_000 }]);
  });

  it('download fails with exit 1 and a clear message when the host is unreachable', async () => {
    const fx = await startFixture(() => ({ text: '' }));
    const url = fx.url;
    await fx.close();
    const r = await runCairn(['models', 'download', `${url}/m/x.gguf`, '--state-dir', tmpDir()], { env: noKeys });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/cannot reach http:\/\/127\.0\.0\.1:\d+ \(ECONNREFUSED\)/);
  });
});
