/**
 * OpenAI embeddings: `POST {baseUrl}/v1/embeddings` with `{model, input: string[],
 * encoding_format: "float"}` → `{data: [{index, embedding}]}`; errors are
 * `{error: {message, type, code}}`. Also fits OpenAI-compatible servers via `baseUrl`.
 */
import { createRemoteEmbedder, type RemoteEmbedder, type RemoteProtocol } from './base';
import { joinUrl, postJson, RemoteEmbedError, type ProviderWire, type RemoteOptions } from './http';

export const OPENAI_DEFAULT_BASE_URL = 'https://api.openai.com';
export const OPENAI_DEFAULT_MODEL = 'text-embedding-3-small';

const wire: ProviderWire = {
  provider: 'openai',
  errorMessage: (_status, body, text) => (body as { error?: { message?: string } } | undefined)?.error?.message ?? text.slice(0, 300),
};

/** `{baseUrl}/v1/embeddings`, accepting a base URL given with or without `/v1`. */
export function openaiEmbeddingsUrl(baseUrl = OPENAI_DEFAULT_BASE_URL): string {
  const base = baseUrl.replace(/\/+$/, '');
  return /\/v\d+$/.test(base) ? joinUrl(base, 'embeddings') : joinUrl(base, 'v1/embeddings');
}

export const openaiProtocol: RemoteProtocol = {
  provider: 'openai',
  defaultModel: OPENAI_DEFAULT_MODEL,
  // The API takes up to 2,048 inputs and 300k tokens per request; 128 chunks of ~400 tokens stays far below.
  defaultBatchSize: 128,
  knownDims: { 'text-embedding-3-small': 1536, 'text-embedding-3-large': 3072, 'text-embedding-ada-002': 1536 },
  async embedBatch(texts, model, opts, signal) {
    const res = (await postJson(
      wire,
      openaiEmbeddingsUrl(opts.baseUrl),
      { model, input: texts, encoding_format: 'float' },
      { authorization: `Bearer ${opts.apiKey}` },
      opts,
      signal,
    )) as { data?: { index?: number; embedding?: number[] }[] };
    if (!Array.isArray(res.data)) throw new RemoteEmbedError('openai', 200, 'openai embeddings: response has no "data" array');
    // Results carry an index; sort rather than trust the order.
    return [...res.data].sort((a, b) => (a.index ?? 0) - (b.index ?? 0)).map((d) => d.embedding ?? []);
  },
};

/** Create an OpenAI embedder (no request unless the model's size is unknown). */
export function createOpenAiEmbedder(opts: RemoteOptions, signal?: AbortSignal): Promise<RemoteEmbedder> {
  return createRemoteEmbedder(openaiProtocol, opts, signal);
}
