import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { LlamaLlm, LocalModelError } from '../../electron/engine/llm/llama';
import { toLlamaFunctions, toLlamaHistory } from '../../electron/engine/llm/llama-convert';
import { downloadModel, downloadOrigin, ModelDownloadError } from '../../electron/engine/llm/llama-download';
import type { Message } from '../../shared/types/messages';
import { tmpDir } from '../helpers/tmp';
import { describeLlm } from '../../electron/engine/llm/factory';
import { LlmSchema } from '../../electron/engine/config/schema';

const servers: http.Server[] = [];
afterEach(async () => {
  while (servers.length) {
    const s = servers.pop()!;
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
});

/** Serve `body` at any path, with HEAD and Range support; `stallAfter` bytes then hang. */
async function fileServer(body: Buffer, stallAfter?: number): Promise<string> {
  const server = http.createServer((req, res) => {
    const m = /bytes=(\d+)-(\d*)/.exec(req.headers.range ?? '');
    const s = m ? Number(m[1]) : 0;
    const e = m?.[2] ? Number(m[2]) : body.length - 1;
    const headers: Record<string, string | number> = { 'content-length': e - s + 1, 'accept-ranges': 'bytes', 'content-type': 'application/octet-stream' };
    if (m) headers['content-range'] = `bytes ${s}-${e}/${body.length}`;
    res.writeHead(m ? 206 : 200, headers);
    if (req.method === 'HEAD') return res.end();
    if (stallAfter !== undefined) res.write(body.subarray(s, Math.min(e + 1, s + stallAfter)));
    else res.end(body.subarray(s, e + 1));
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('node-llama-cpp history conversion', () => {
  it('folds a tool round into one model turn with results inside the calls', () => {
    const messages: Message[] = [
      { role: 'user', content: 'what is in a.md?' },
      { role: 'assistant', content: [{ type: 'thinking', thinking: 'read it' }, { type: 'text', text: 'Reading.' }, { type: 'toolCall', id: 'c1', name: 'read', arguments: { path: 'a.md' } }, { type: 'toolCall', id: 'c2', name: 'read', arguments: { path: 'b.md' } }] },
      { role: 'toolResult', toolCallId: 'c1', toolName: 'read', content: [{ type: 'text', text: 'alpha' }], isError: false },
      { role: 'toolResult', toolCallId: 'c2', toolName: 'read', content: [{ type: 'text', text: 'no such file' }, { type: 'image', data: 'x', mimeType: 'image/png' }], isError: true },
      { role: 'assistant', content: [{ type: 'text', text: 'It says alpha.' }] },
      { role: 'user', content: [{ type: 'text', text: 'thanks' }, { type: 'image', data: 'x', mimeType: 'image/png' }] },
    ];
    expect(toLlamaHistory('sys', messages)).toEqual([
      { type: 'system', text: 'sys' },
      { type: 'user', text: 'what is in a.md?' },
      {
        type: 'model',
        response: [
          { type: 'segment', segmentType: 'thought', text: 'read it', ended: true },
          'Reading.',
          { type: 'functionCall', name: 'read', params: { path: 'a.md' }, result: 'alpha', startsNewChunk: true },
          { type: 'functionCall', name: 'read', params: { path: 'b.md' }, result: { error: 'no such file\n[1 image(s) omitted: this model reads text only]' } },
          'It says alpha.',
        ],
      },
      { type: 'user', text: 'thanks\n[image omitted]' },
      { type: 'model', response: [] },
    ]);
  });

  it('continues the open model turn when the history ends with tool results', () => {
    const h = toLlamaHistory(undefined, [
      { role: 'user', content: 'go' },
      { role: 'assistant', content: [{ type: 'toolCall', id: 'c1', name: 'read', arguments: {} }] },
      { role: 'toolResult', toolCallId: 'c1', toolName: 'read', content: [{ type: 'text', text: 'r' }], isError: false },
    ]);
    expect(h).toHaveLength(2);
    expect(h[1]).toEqual({ type: 'model', response: [{ type: 'functionCall', name: 'read', params: {}, result: 'r', startsNewChunk: true }] });
  });

  it('keeps only the JSON-Schema keywords the grammar supports', () => {
    const fns = toLlamaFunctions([
      { name: 'read', description: 'Read', parameters: { type: 'object', $schema: 'x', properties: { path: { type: 'string', minLength: 1, description: 'p' }, from: { type: 'integer', minimum: 1 } }, required: ['path'], additionalProperties: false } },
    ]);
    expect(fns).toEqual({
      read: { description: 'Read', params: { type: 'object', properties: { path: { type: 'string', description: 'p' }, from: { type: 'integer' } }, required: ['path'], additionalProperties: false } },
    });
  });
});

describe('local GGUF chat model', () => {
  it('says clearly when the model file is missing, before loading native code', async () => {
    const llm = new LlamaLlm({ modelPath: path.join(tmpDir(), 'nope.gguf') });
    const err = await llm.chat({ messages: [{ role: 'user', content: 'hi' }] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LocalModelError);
    expect((err as Error).message).toMatch(/local chat model not found: .*nope\.gguf; set cairn\.llm\.modelPath/);
    expect(llm.contextWindow).toBeUndefined();
    await llm.dispose();
  });

  it('refuses a file that is not GGUF', async () => {
    const file = path.join(tmpDir(), 'notes.gguf');
    fs.writeFileSync(file, '# just markdown\n');
    const llm = new LlamaLlm({ modelPath: file, contextSize: 2048 });
    await expect(llm.countTokens('x')).rejects.toThrow(/is not a GGUF model file/);
    expect(llm.contextWindow).toBe(2048);
  });

  it('downloads a model over HTTP with progress, then the real loader reports a corrupt file', async () => {
    const body = Buffer.concat([Buffer.from('GGUF'), Buffer.alloc(200_000, 1)]);
    const url = await fileServer(body);
    const dir = tmpDir();
    const progress: number[] = [];
    const file = await downloadModel(`${url}/tiny-chat.gguf`, { modelsDir: path.join(dir, 'cairn', 'models'), onProgress: (p) => progress.push(p.downloadedBytes) });
    expect(file).toBe(path.join(dir, 'cairn', 'models', 'tiny-chat.gguf'));
    expect(fs.readFileSync(file).equals(body)).toBe(true);
    expect(progress[progress.length - 1]).toBe(body.length);
    // Found again by its URI without the network (Cairn's own download record), then loaded for real.
    const uri = `${url}/tiny-chat.gguf`;
    const status = describeLlm(LlmSchema.parse({ provider: 'llama', modelUri: uri }), { modelsDir: path.join(dir, 'cairn', 'models') });
    expect(status).toMatchObject({ configured: true, modelFile: { uri, path: file, exists: true, sizeBytes: body.length } });
    const llm = new LlamaLlm({ modelUri: uri, modelsDir: path.join(dir, 'cairn', 'models') });
    expect(await llm.resolveModelPath()).toBe(file);
    const err = await llm.chat({ messages: [{ role: 'user', content: 'hi' }] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LocalModelError);
    expect((err as Error).message).toMatch(/^could not load .*tiny-chat\.gguf: /);
    await llm.dispose();
  });

  it('cancels a download in progress', async () => {
    const url = await fileServer(Buffer.concat([Buffer.from('GGUF'), Buffer.alloc(500_000, 2)]), 100_000);
    const ac = new AbortController();
    const p = downloadModel(`${url}/big.gguf`, { modelsDir: tmpDir(), signal: ac.signal, onProgress: (x) => x.downloadedBytes > 0 && ac.abort() });
    await expect(p).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('fails fast with a clear error when the host cannot be reached (offline)', async () => {
    const url = await fileServer(Buffer.from('GGUF'));
    const s = servers.pop()!;
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
    const err = await downloadModel(`${url}/m.gguf`, { modelsDir: tmpDir() }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ModelDownloadError);
    expect((err as Error).message).toMatch(/cannot reach 127\.0\.0\.1:\d+ \(ECONNREFUSED\): you may be offline; nothing was downloaded/);
  });

  it('validates model URIs', () => {
    expect(downloadOrigin('hf:bartowski/Qwen2.5-1.5B-Instruct-GGUF/Qwen2.5-1.5B-Instruct-Q4_K_M.gguf')).toBe('https://huggingface.co');
    expect(downloadOrigin('hf:unsloth/Qwen3-4B-GGUF:Q4_K_M')).toBe('https://huggingface.co');
    expect(() => downloadOrigin('ftp://x/y.gguf')).toThrow(/invalid model URI/);
    expect(() => downloadOrigin('hf:justone')).toThrow(/invalid model URI/);
  });
});
