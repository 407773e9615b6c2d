/**
 * Asking an OpenAI-compatible server how large its context is. Local servers run with a
 * context far smaller than the 200k default, and some (Ollama) truncate silently instead of
 * failing, so compaction must know the real number before the first call:
 * llama.cpp `GET /props` → `default_generation_settings.n_ctx` (what it runs with);
 * vLLM `GET /v1/models` → `max_model_len`; LM Studio `GET /api/v0/models/<id>` →
 * `loaded_context_length`; Ollama `POST /api/show` → `num_ctx` in its parameters.
 * Every probe is best effort: a short timeout, no retries, failures mean "unknown".
 */

type Json = Record<string, unknown>;

const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) && v > 0 ? Math.floor(v) : undefined);

async function getJson(url: string, signal: AbortSignal, f: typeof fetch, init: RequestInit = {}): Promise<Json | undefined> {
  try {
    const res = await f(url, { ...init, signal });
    if (!res.ok) return undefined;
    const v = (await res.json()) as unknown;
    return v && typeof v === 'object' ? (v as Json) : undefined;
  } catch {
    return undefined;
  }
}

/** The server's context window for `model`, or undefined when no probe answers. */
export async function probeContextWindow(baseUrl: string, model: string, opts: { signal?: AbortSignal; fetch?: typeof fetch; headers?: Record<string, string>; timeoutMs?: number } = {}): Promise<number | undefined> {
  const timeout = AbortSignal.timeout(opts.timeoutMs ?? 3000);
  const signal = opts.signal ? AbortSignal.any([opts.signal, timeout]) : timeout;
  const f = opts.fetch ?? fetch;
  const root = baseUrl.replace(/\/+$/, '').replace(/\/v1$/, '');
  const headers = opts.headers ?? {};

  const props = await getJson(`${root}/props`, signal, f, { headers });
  const nCtx = num((props?.default_generation_settings as Json | undefined)?.n_ctx) ?? num(props?.n_ctx);
  if (nCtx) return nCtx;

  const models = await getJson(`${root}/v1/models`, signal, f, { headers });
  const list = Array.isArray(models?.data) ? (models.data as Json[]) : [];
  const entry = list.find((m) => m.id === model) ?? (list.length === 1 ? list[0] : undefined);
  const fromList = num(entry?.max_model_len) ?? num(entry?.loaded_context_length) ?? num(entry?.context_length) ?? num((entry?.meta as Json | undefined)?.n_ctx_train);
  if (fromList) return fromList;

  const lms = await getJson(`${root}/api/v0/models/${encodeURIComponent(model)}`, signal, f, { headers });
  const loaded = num(lms?.loaded_context_length);
  if (loaded) return loaded;

  const show = await getJson(`${root}/api/show`, signal, f, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({ model }) });
  const params = typeof show?.parameters === 'string' ? show.parameters : '';
  const m = /(?:^|\n)\s*num_ctx\s+(\d+)/.exec(params);
  return m ? Number(m[1]) : undefined;
}
