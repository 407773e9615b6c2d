/**
 * Voyage AI embeddings: `POST {baseUrl}/v1/embeddings` with `{input: string[], model,
 * input_type: "document" | "query"}` → `{data: [{index, embedding}]}`; errors are `{detail: "..."}`.
 */
import { createRemoteEmbedder, type RemoteEmbedder, type RemoteProtocol } from './base';
import { joinUrl, postJson, RemoteEmbedError, type ProviderWire, type RemoteOptions } from './http';

export const VOYAGE_DEFAULT_BASE_URL = 'https://api.voyageai.com';
/** OpenClaw's default, so an OpenClaw user's key and expectations carry over. */
export const VOYAGE_DEFAULT_MODEL = 'voyage-4-large';

const wire: ProviderWire = {
  provider: 'voyage',
  errorMessage: (_status, body, text) => {
    const d = (body as { detail?: unknown } | undefined)?.detail;
    return typeof d === 'string' ? d : d !== undefined ? JSON.stringify(d).slice(0, 300) : text.slice(0, 300);
  },
};

export function voyageEmbeddingsUrl(baseUrl = VOYAGE_DEFAULT_BASE_URL): string {
  const base = baseUrl.replace(/\/+$/, '');
  return /\/v\d+$/.test(base) ? joinUrl(base, 'embeddings') : joinUrl(base, 'v1/embeddings');
}

export const voyageProtocol: RemoteProtocol = {
  provider: 'voyage',
  defaultModel: VOYAGE_DEFAULT_MODEL,
  // Up to 1,000 inputs per request, but token caps per model (120k for the large ones): 64 × ~400 tokens fits all.
  defaultBatchSize: 64,
  knownDims: {
    'voyage-4-large': 1024,
    'voyage-4': 1024,
    'voyage-4-lite': 1024,
    'voyage-3.5': 1024,
    'voyage-3.5-lite': 1024,
    'voyage-3-large': 1024,
    'voyage-3': 1024,
    'voyage-3-lite': 512,
    'voyage-code-3': 1024,
  },
  async embedBatch(texts, model, opts, signal, kind) {
    const res = (await postJson(
      wire,
      voyageEmbeddingsUrl(opts.baseUrl),
      { input: texts, model, input_type: kind === 'query' ? 'query' : 'document' },
      { authorization: `Bearer ${opts.apiKey}` },
      opts,
      signal,
    )) as { data?: { index?: number; embedding?: number[] }[] };
    if (!Array.isArray(res.data)) throw new RemoteEmbedError('voyage', 200, 'voyage embeddings: response has no "data" array');
    return [...res.data].sort((a, b) => (a.index ?? 0) - (b.index ?? 0)).map((d) => d.embedding ?? []);
  },
};

/** Create a Voyage embedder (no request unless the model's size is unknown). */
export function createVoyageEmbedder(opts: RemoteOptions, signal?: AbortSignal): Promise<RemoteEmbedder> {
  return createRemoteEmbedder(voyageProtocol, opts, signal);
}
