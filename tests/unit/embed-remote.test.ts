import { describe, expect, it } from 'vitest';
import { createOpenAiEmbedder } from '../../electron/engine/embed/remote/openai';
import { createGeminiEmbedder } from '../../electron/engine/embed/remote/gemini';
import { createVoyageEmbedder } from '../../electron/engine/embed/remote/voyage';
import type { RemoteOptions } from '../../electron/engine/embed/remote/http';
import { dot } from '../../electron/engine/embed/vector';
import { startFixture, type RecordedRequest } from '../helpers/http-fixture';

/** A deterministic 4-d vector per text (not normalised, so normalisation is visible). */
const vec = (text: string): number[] => [text.length, 1, 0, 2];

/** Sleeps are recorded, never waited: tests do not depend on time. */
function fakeTiming(): Pick<RemoteOptions, 'sleep' | 'random'> & { slept: number[] } {
  const slept: number[] = [];
  return { slept, random: () => 0, sleep: async (ms) => void slept.push(ms) };
}

const openaiReply = (req: RecordedRequest) => {
  const input = (req.body as { input: string[] }).input;
  // The real API returns `index`; reversed here to prove we sort by it.
  return { json: { object: 'list', model: 'text-embedding-3-small', data: input.map((t, index) => ({ object: 'embedding', index, embedding: vec(t) })).reverse(), usage: { prompt_tokens: 1, total_tokens: 1 } } };
};

describe('OpenAI embedder', () => {
  it('speaks POST /v1/embeddings with a bearer key, batches, sorts by index and normalises', async () => {
    const fx = await startFixture(openaiReply);
    const progress: number[] = [];
    const e = await createOpenAiEmbedder({ apiKey: 'sk-test', keySource: 'OPENAI_API_KEY', baseUrl: fx.url, batchSize: 2 });
    expect(e.id).toBe('openai:text-embedding-3-small');
    expect(e.dims).toBe(1536); // known model: no probe request
    expect(fx.requests).toHaveLength(0);
    const small = await createOpenAiEmbedder({ apiKey: 'sk-test', keySource: 'OPENAI_API_KEY', baseUrl: `${fx.url}/v1/`, model: 'my-local-model', batchSize: 2 });
    expect(small.dims).toBe(4); // unknown model: probed once
    fx.requests.length = 0;
    const out = await small.embed(['a', 'bb', 'ccc', '', 'eeeee'], { onProgress: (d) => progress.push(d) });
    expect(fx.requests.map((r) => [r.method, r.path])).toEqual([
      ['POST', '/v1/embeddings'],
      ['POST', '/v1/embeddings'],
      ['POST', '/v1/embeddings'],
    ]);
    expect(fx.requests[0]?.headers.authorization).toBe('Bearer sk-test');
    expect(fx.requests[0]?.body).toEqual({ model: 'my-local-model', input: ['a', 'bb'], encoding_format: 'float' });
    expect(fx.requests[2]?.body).toMatchObject({ input: ['eeeee'] }); // the empty text is not sent
    expect(progress).toEqual([2, 4, 5]);
    const expected = (t: string): number[] => {
      const v = vec(t);
      const n = Math.hypot(...v);
      return v.map((x) => x / n);
    };
    out.forEach((v, i) => {
      const t = ['a', 'bb', 'ccc', '', 'eeeee'][i] as string;
      if (t === '') expect(Array.from(v)).toEqual([0, 0, 0, 0]);
      else Array.from(v).forEach((x, k) => expect(x).toBeCloseTo(expected(t)[k] as number, 6));
    });
    expect(dot(out[0]!, out[0]!)).toBeCloseTo(1, 6);
  });

  it('retries 429 honouring Retry-After and 5xx with exponential backoff, then succeeds', async () => {
    const fx = await startFixture((req, n) => {
      if (n === 0) return { status: 429, headers: { 'retry-after': '2' }, json: { error: { message: 'Rate limit reached for requests', type: 'requests', param: null, code: 'rate_limit_exceeded' } } };
      if (n === 1 || n === 2) return { status: 503, json: { error: { message: 'The server is overloaded', type: 'server_error', param: null, code: null } } };
      return openaiReply(req);
    });
    const t = fakeTiming();
    const e = await createOpenAiEmbedder({ apiKey: 'k', keySource: 'OPENAI_API_KEY', baseUrl: fx.url, dims: 4, baseDelayMs: 100, ...t });
    const [v] = await e.embed(['hello']);
    expect(v).toHaveLength(4);
    expect(fx.requests).toHaveLength(4);
    expect(t.slept).toEqual([2000, 100, 200]); // Retry-After, then 100·2^n with equal jitter (random = 0 → half)
  }, 10_000);

  it('refuses a bad key at once, naming where the key came from', async () => {
    const fx = await startFixture(() => ({ status: 401, json: { error: { message: 'Incorrect API key provided: sk-bad. You can find your API key at https://platform.openai.com/account/api-keys.', type: 'invalid_request_error', param: null, code: 'invalid_api_key' } } }));
    const e = await createOpenAiEmbedder({ apiKey: 'sk-bad', keySource: 'OPENAI_API_KEY', baseUrl: fx.url, dims: 4, ...fakeTiming() });
    await expect(e.embed(['x'])).rejects.toThrow(/API key was refused \(HTTP 401: Incorrect API key provided.*Check OPENAI_API_KEY \(environment variable\)/);
    expect(fx.requests).toHaveLength(1);
  });

  it('does not retry other 4xx, and gives up on persistent 5xx after maxRetries', async () => {
    const bad = await startFixture(() => ({ status: 400, json: { error: { message: "'input' is a required property", type: 'invalid_request_error', param: null, code: null } } }));
    const e = await createOpenAiEmbedder({ apiKey: 'k', keySource: 'memorySearch.remote.apiKey', baseUrl: bad.url, dims: 4, ...fakeTiming() });
    await expect(e.embed(['x'])).rejects.toThrow(/HTTP 400: 'input' is a required property/);
    expect(bad.requests).toHaveLength(1);
    const down = await startFixture(() => ({ status: 500, text: 'internal error' }));
    const t = fakeTiming();
    const e2 = await createOpenAiEmbedder({ apiKey: 'k', keySource: 'OPENAI_API_KEY', baseUrl: down.url, dims: 4, maxRetries: 2, ...t });
    await expect(e2.embed(['x'])).rejects.toThrow(/HTTP 500: internal error \(gave up after 3 attempts\)/);
    expect(down.requests).toHaveLength(3);
  });

  it('retries a refused connection and then says the host cannot be reached', async () => {
    const fx = await startFixture(openaiReply);
    const url = fx.url;
    await fx.close();
    const e = await createOpenAiEmbedder({ apiKey: 'k', keySource: 'OPENAI_API_KEY', baseUrl: url, dims: 4, maxRetries: 1, ...fakeTiming() });
    await expect(e.embed(['x'])).rejects.toThrow(/cannot reach http:\/\/127\.0\.0\.1:\d+ \(ECONNREFUSED\)/);
  });

  it('stops waiting for a retry when aborted', async () => {
    const fx = await startFixture(() => ({ status: 429, headers: { 'retry-after': '3600' }, json: { error: { message: 'slow down' } } }));
    const ac = new AbortController();
    const e = await createOpenAiEmbedder({
      apiKey: 'k',
      keySource: 'OPENAI_API_KEY',
      baseUrl: fx.url,
      dims: 4,
      maxDelayMs: 3_600_000,
      sleep: async (_ms, signal) => {
        ac.abort(); // the user cancels while we wait
        if (signal?.aborted) throw signal.reason;
      },
    });
    await expect(e.embed(['x'], { signal: ac.signal })).rejects.toThrow(/abort/i);
    expect(fx.requests).toHaveLength(1);
  });

  it('rejects vectors of the wrong size with a clear error', async () => {
    const fx = await startFixture(openaiReply);
    const e = await createOpenAiEmbedder({ apiKey: 'k', keySource: 'OPENAI_API_KEY', baseUrl: fx.url, dims: 8 });
    await expect(e.embed(['x'])).rejects.toThrow(/returned 4 dimensions, expected 8/);
  });
});

describe('Gemini embedder', () => {
  it('speaks batchEmbedContents with the key in x-goog-api-key', async () => {
    const fx = await startFixture((req) => {
      const { requests } = req.body as { requests: { content: { parts: { text: string }[] } }[] };
      return { json: { embeddings: requests.map((r) => ({ values: vec(r.content.parts[0]?.text ?? '') })) } };
    });
    const e = await createGeminiEmbedder({ apiKey: 'AIza-test', keySource: 'GEMINI_API_KEY', baseUrl: `${fx.url}/v1beta`, dims: 4 });
    expect(e.id).toBe('gemini:gemini-embedding-001');
    const defaults = await createGeminiEmbedder({ apiKey: 'k', keySource: 'GEMINI_API_KEY', baseUrl: `${fx.url}/v1beta` });
    expect(defaults.dims).toBe(768); // asks for 768 of gemini-embedding-001's 3,072 (Matryoshka)
    const out = await e.embed(['one', 'three']);
    expect(fx.requests[0]?.path).toBe('/v1beta/models/gemini-embedding-001:batchEmbedContents');
    expect(fx.requests[0]?.headers['x-goog-api-key']).toBe('AIza-test');
    expect(fx.requests[0]?.body).toEqual({
      requests: [
        { model: 'models/gemini-embedding-001', content: { parts: [{ text: 'one' }] }, taskType: 'RETRIEVAL_DOCUMENT', outputDimensionality: 4 },
        { model: 'models/gemini-embedding-001', content: { parts: [{ text: 'three' }] }, taskType: 'RETRIEVAL_DOCUMENT', outputDimensionality: 4 },
      ],
    });
    expect(out.map((v) => dot(v, v))).toEqual([expect.closeTo(1, 6), expect.closeTo(1, 6)]);
    expect(out[0]![0]! / out[0]![1]!).toBeCloseTo(3, 5);
    await e.embed(['what did I decide?'], { kind: 'query' });
    expect(fx.requests[1]?.body).toMatchObject({ requests: [{ taskType: 'RETRIEVAL_QUERY' }] });
  });

  it('treats 400 API_KEY_INVALID as a key problem and retries RESOURCE_EXHAUSTED', async () => {
    const invalid = await startFixture(() => ({
      status: 400,
      json: { error: { code: 400, message: 'API key not valid. Please pass a valid API key.', status: 'INVALID_ARGUMENT', details: [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'API_KEY_INVALID', domain: 'googleapis.com' }] } },
    }));
    const bad = await createGeminiEmbedder({ apiKey: 'nope', keySource: 'GEMINI_API_KEY', baseUrl: invalid.url, dims: 4, ...fakeTiming() });
    await expect(bad.embed(['x'])).rejects.toThrow(/API key was refused \(HTTP 400: INVALID_ARGUMENT: API key not valid.*GEMINI_API_KEY/);
    const busy = await startFixture((req, n) =>
      n === 0
        ? { status: 429, json: { error: { code: 429, message: 'Resource has been exhausted (e.g. check quota).', status: 'RESOURCE_EXHAUSTED' } } }
        : { json: { embeddings: (req.body as { requests: unknown[] }).requests.map(() => ({ values: [1, 0, 0, 0] })) } },
    );
    const t = fakeTiming();
    const ok = await createGeminiEmbedder({ apiKey: 'k', keySource: 'GEMINI_API_KEY', baseUrl: busy.url, dims: 4, ...t });
    expect(Array.from((await ok.embed(['x']))[0]!)).toEqual([1, 0, 0, 0]);
    expect(t.slept).toHaveLength(1);
  });
});

describe('Voyage embedder', () => {
  it('speaks POST /v1/embeddings with input_type document', async () => {
    const fx = await startFixture((req) => {
      const input = (req.body as { input: string[] }).input;
      return { json: { object: 'list', data: input.map((t, index) => ({ object: 'embedding', embedding: vec(t), index })), model: 'voyage-4-large', usage: { total_tokens: 3 } } };
    });
    const e = await createVoyageEmbedder({ apiKey: 'pa-test', keySource: 'VOYAGE_API_KEY', baseUrl: fx.url, dims: 4 });
    expect(e.id).toBe('voyage:voyage-4-large');
    await e.embed(['alpha']);
    expect(fx.requests[0]?.path).toBe('/v1/embeddings');
    expect(fx.requests[0]?.headers.authorization).toBe('Bearer pa-test');
    expect(fx.requests[0]?.body).toEqual({ input: ['alpha'], model: 'voyage-4-large', input_type: 'document' });
    await e.embed(['beta?'], { kind: 'query' });
    expect(fx.requests[1]?.body).toMatchObject({ input_type: 'query' });
  });

  it('reports Voyage error details and names the key on 401', async () => {
    const fx = await startFixture(() => ({ status: 401, json: { detail: 'Provided API key is invalid.' } }));
    const e = await createVoyageEmbedder({ apiKey: 'bad', keySource: 'memorySearch.remote.apiKey', baseUrl: fx.url, dims: 4 });
    await expect(e.embed(['x'])).rejects.toThrow(/HTTP 401: Provided API key is invalid\.\). Check memorySearch\.remote\.apiKey/);
  });
});
