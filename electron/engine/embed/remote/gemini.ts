/**
 * Gemini embeddings: `POST {baseUrl}/models/{model}:batchEmbedContents` (key in the
 * `x-goog-api-key` header) with `{requests: [{model: "models/{model}", content: {parts:
 * [{text}]}, taskType: RETRIEVAL_DOCUMENT | RETRIEVAL_QUERY, outputDimensionality}]}` → `{embeddings: [{values}]}`. Errors are Google RPC style
 * `{error: {code, message, status}}`; an invalid key is a 400 with reason API_KEY_INVALID.
 */
import { createRemoteEmbedder, type RemoteEmbedder, type RemoteProtocol } from './base';
import { joinUrl, postJson, RemoteEmbedError, type ProviderWire, type RemoteOptions } from './http';

export const GEMINI_DEFAULT_BASE_URL = 'https://generativelanguage.googleapis.com/v1beta';
export const GEMINI_DEFAULT_MODEL = 'gemini-embedding-001';

interface GoogleError {
  error?: { code?: number; message?: string; status?: string; details?: { reason?: string }[] };
}

const wire: ProviderWire = {
  provider: 'gemini',
  errorMessage: (_status, body, text) => {
    const e = (body as GoogleError | undefined)?.error;
    return e?.message ? `${e.status ? `${e.status}: ` : ''}${e.message}` : text.slice(0, 300);
  },
  isAuthError: (status, body) => {
    const e = (body as GoogleError | undefined)?.error;
    return status === 400 && (e?.details?.some((d) => d.reason === 'API_KEY_INVALID') ?? /API key not valid/i.test(e?.message ?? ''));
  },
};

const modelPath = (model: string): string => (model.startsWith('models/') ? model : `models/${model}`);

/**
 * gemini-embedding-001 returns 3,072 dimensions unless asked for fewer; it is trained to be
 * truncated (Matryoshka) and Google lists 768 as a recommended size. 768 keeps a 100k-chunk
 * index at 300 MB of vectors instead of 1.2 GB. `dims` in the options overrides.
 */
const OUTPUT_DIMS: Record<string, number> = { 'gemini-embedding-001': 768 };

export const geminiProtocol: RemoteProtocol = {
  provider: 'gemini',
  defaultModel: GEMINI_DEFAULT_MODEL,
  // batchEmbedContents accepts at most 100 requests.
  defaultBatchSize: 100,
  knownDims: { 'gemini-embedding-001': 768, 'text-embedding-004': 768, 'embedding-001': 768 },
  async embedBatch(texts, model, opts, signal, kind) {
    const mp = modelPath(model);
    const outDims = opts.dims ?? OUTPUT_DIMS[model.replace(/^models\//, '')];
    const res = (await postJson(
      wire,
      joinUrl(opts.baseUrl ?? GEMINI_DEFAULT_BASE_URL, `${mp}:batchEmbedContents`),
      {
        requests: texts.map((text) => ({
          model: mp,
          content: { parts: [{ text }] },
          taskType: kind === 'query' ? 'RETRIEVAL_QUERY' : 'RETRIEVAL_DOCUMENT',
          ...(outDims ? { outputDimensionality: outDims } : {}),
        })),
      },
      { 'x-goog-api-key': opts.apiKey },
      opts,
      signal,
    )) as { embeddings?: { values?: number[] }[] };
    if (!Array.isArray(res.embeddings)) throw new RemoteEmbedError('gemini', 200, 'gemini embeddings: response has no "embeddings" array');
    return res.embeddings.map((e) => e.values ?? []);
  },
};

/** Create a Gemini embedder (no request unless the model's size is unknown). */
export function createGeminiEmbedder(opts: RemoteOptions, signal?: AbortSignal): Promise<RemoteEmbedder> {
  return createRemoteEmbedder(geminiProtocol, opts, signal);
}
