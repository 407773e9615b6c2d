import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { downloadModel, findDownloadedModel, listModelFiles, modelHost } from '../../electron/engine/embed/download';
import { serveSlowBytes, startFixture } from '../helpers/http-fixture';
import { tmpDir } from '../helpers/tmp';

const SIZE = 2_000_000;
const STEP = 100_000;

/** Serves a model file in slices, so progress events arrive and a cancel lands mid-way. */
const serveModel = () => serveSlowBytes(SIZE, { step: STEP, fill: 7, headers: { 'accept-ranges': 'none' } });

describe('downloadModel', () => {
  it('downloads into the models dir with progress, then finds it offline without a request', async () => {
    const fx = await serveModel();
    const dir = path.join(tmpDir(), 'models');
    const seen: { downloadedBytes: number; totalBytes: number }[] = [];
    const file = await downloadModel(`${fx.url}/m/tiny-embed.gguf`, dir, { onProgress: (p) => seen.push(p) });
    expect(file).toBe(path.join(dir, 'tiny-embed.gguf'));
    expect(fs.statSync(file).size).toBe(SIZE);
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.every((p) => p.totalBytes === SIZE && p.downloadedBytes <= SIZE)).toBe(true);
    expect(await findDownloadedModel(`${fx.url}/m/tiny-embed.gguf`, dir)).toBe(file);
    expect(listModelFiles(dir)).toEqual([{ name: 'tiny-embed.gguf', path: file, bytes: SIZE }]);
    const before = fx.requests.length;
    expect(await downloadModel(`${fx.url}/m/tiny-embed.gguf`, dir)).toBe(file);
    expect(fx.requests.length).toBe(before); // already there: no network
  });

  it('cancels mid-way, leaving no model file behind', async () => {
    const fx = await serveModel();
    const dir = path.join(tmpDir(), 'models');
    const ac = new AbortController();
    await expect(
      downloadModel(`${fx.url}/m/big.gguf`, dir, {
        signal: ac.signal,
        onProgress: (p) => {
          if (p.downloadedBytes >= STEP) ac.abort();
        },
      }),
    ).rejects.toThrow(/abort/i);
    expect(await findDownloadedModel(`${fx.url}/m/big.gguf`, dir)).toBeUndefined();
    expect(listModelFiles(dir)).toEqual([]);
  });

  it('says clearly when the host cannot be reached, and what to do instead', async () => {
    const fx = await startFixture(() => ({ text: '' }));
    const url = fx.url;
    await fx.close();
    const dir = path.join(tmpDir(), 'models');
    await expect(downloadModel(`${url}/m/x.gguf`, dir)).rejects.toThrow(
      /cannot reach http:\/\/127\.0\.0\.1:\d+ \(ECONNREFUSED\) to fetch .*x\.gguf\. .*copy a \.gguf embedding model into .*models and set memory\.search\.local\.modelPath/,
    );
  });

  it('rejects something that is neither an hf: URI nor a URL', async () => {
    await expect(downloadModel('not a uri', tmpDir())).rejects.toThrow(/neither an hf: URI nor an http\(s\) URL/);
    expect(modelHost('hf:ggml-org/embeddinggemma-300m-qat-q8_0-GGUF/embeddinggemma-300m-qat-Q8_0.gguf')).toBe('https://huggingface.co');
  });

  it('finds nothing for the default model in an empty or missing models dir', async () => {
    const uri = 'hf:ggml-org/embeddinggemma-300m-qat-q8_0-GGUF/embeddinggemma-300m-qat-Q8_0.gguf';
    expect(await findDownloadedModel(uri, path.join(tmpDir(), 'missing'))).toBeUndefined();
    expect(await findDownloadedModel(uri, tmpDir())).toBeUndefined();
  });
});
