/**
 * Contract handlers of the chat model (`llm.status`, `llm.test`, `llm.download`) and its
 * `cairn doctor` check. The doctor check reads the settings only (no network, no model
 * load); `llm.test` is the one that talks to the model.
 */
import type { DoctorCheck } from '../../../shared/contract/app';
import type { LlmStatus, LlmTestResult } from '../../../shared/types/llm';
import type { EngineContext } from '../core/context';
import { EngineError } from '../core/errors';
import type { Handlers } from '../rpc/dispatcher';
import { describeLlm, LlmConfigError } from './factory';
import { engineLlm } from './service';
import { effectiveLlmSettings } from './openclaw-model';
import { downloadModel, ModelDownloadError } from './llama-download';
import { textOf } from './tool-pairs';

/** The status of the engine's chat model (settings, plus what a built model reports). */
export function llmStatus(ctx: EngineContext): LlmStatus {
  const { settings, from } = effectiveLlmSettings(ctx.config().config);
  const status = describeLlm(settings, { env: ctx.env(), modelsDir: ctx.paths().modelsDir, baseDir: ctx.stateDir });
  if (from) {
    status.source = from.source;
    if ('problem' in from) status.problem = `${from.source}: ${from.problem}`;
    else if (from.keyFrom && status.keySource === 'config') status.keySource = 'openclaw';
  }
  if (ctx.deps.createLlm) {
    // An injected model (tests, embedders of the engine) is what runs, whatever the settings say.
    const llm = engineLlm(ctx);
    if (llm) return { provider: llm.provider, model: llm.model, configured: true, ...(llm.contextWindow ? { contextWindow: llm.contextWindow } : {}) };
  }
  if (status.configured && !status.contextWindow) {
    // What a built model knows (a probed server, a loaded local context, a known hosted model).
    try {
      const cw = engineLlm(ctx)?.contextWindow;
      if (cw) status.contextWindow = cw;
    } catch {
      // misconfigured: the status already says why
    }
  }
  return status;
}

/** Send one tiny request and report ok/error with the latency. */
export async function testLlm(ctx: EngineContext, signal?: AbortSignal): Promise<LlmTestResult> {
  const started = Date.now();
  const provider = ctx.config().config.cairn.llm.provider;
  const fail = (err: unknown, model?: string): LlmTestResult => ({
    ok: false,
    message: (err as Error).message,
    latencyMs: Date.now() - started,
    provider,
    ...(model ? { model } : {}),
    errorKind: (err as Error).name,
  });
  let llm;
  try {
    llm = engineLlm(ctx);
  } catch (err) {
    if (err instanceof LlmConfigError) return fail(err);
    throw err;
  }
  if (!llm) return fail(new Error(llmStatus(ctx).problem ?? 'no chat model configured'));
  try {
    // Loads a local model / probes a local server's context size first, as a chat would.
    await (llm as { load?: (s?: AbortSignal) => Promise<unknown> }).load?.(signal);
    const res = await llm.chat({ messages: [{ role: 'user', content: 'Reply with the single word: pong' }], maxTokens: 16, temperature: 0, signal });
    const text = textOf(res.message.content).trim();
    const cw = llm.contextWindow;
    return { ok: true, message: text ? text.slice(0, 200) : '(empty reply)', latencyMs: Date.now() - started, provider, model: llm.model, ...(cw ? { contextWindow: cw } : {}) };
  } catch (err) {
    if (signal?.aborted) throw err;
    return fail(err, llm.model);
  }
}

/** Handlers of `llm.status`, `llm.test` and `llm.download`. */
export function llmHandlers(ctx: EngineContext): Pick<Handlers, 'llm.status' | 'llm.test' | 'llm.download'> {
  return {
    'llm.status': () => llmStatus(ctx),
    'llm.test': (_req, { signal }) => testLlm(ctx, signal),
    'llm.download': async (_req, { signal, opId }) => {
      const uri = ctx.config().config.cairn.llm.modelUri;
      if (!uri) throw new EngineError('bad_request', 'cairn.llm.modelUri is not set: name the model to download (e.g. hf:<user>/<repo>/<file>.gguf)');
      try {
        const file = await downloadModel(uri, {
          modelsDir: ctx.paths().modelsDir,
          signal,
          onProgress: (p) => ctx.events.emit('llm.downloadProgress', { ...(opId ? { opId } : {}), ...p }),
        });
        return { path: file, uri };
      } catch (err) {
        if (err instanceof ModelDownloadError) throw new EngineError('unavailable', err.message);
        throw err;
      }
    },
  };
}

/** The doctor's view of `llmStatus`. */
export function llmDoctorCheck(ctx: EngineContext): DoctorCheck {
  const s = llmStatus(ctx);
  const base = { id: 'llm', label: 'Chat model' };
  if (s.provider === 'none' && !s.configured && s.source) {
    return { ...base, status: 'warn', detail: s.problem ?? `${s.source}: not usable`, hint: 'Choose a provider in Settings → Model (cairn.llm.provider) to use another model.' };
  }
  if (s.provider === 'none' && !s.configured) {
    return { ...base, status: 'warn', detail: 'no chat model configured', hint: 'Choose a provider in Settings → Model (cairn.llm.provider). Without one, chat is unavailable and compaction writes the deterministic extract.' };
  }
  if (!s.configured) return { ...base, status: 'warn', detail: `${s.provider}: ${s.problem ?? 'not configured'}`, hint: 'Fix the named setting in Settings → Model, then use Test connection.' };
  const parts = [`${s.provider} ${s.model ?? ''}`.trim()];
  if (s.baseUrl) parts.push(`at ${s.baseUrl}`);
  if (s.keySource === 'env') parts.push(`key from ${s.keyEnv}`);
  if (s.keySource === 'config') parts.push('key from cairn.llm.apiKey');
  if (s.keySource === 'openclaw') parts.push('key from openclaw.json');
  if (s.source) parts.push(`from ${s.source}`);
  if (s.modelFile?.path) parts.push(`file ${s.modelFile.path}${s.modelFile.sizeBytes ? ` (${(s.modelFile.sizeBytes / 1e9).toFixed(2)} GB)` : ''}`);
  if (s.modelFile?.uri) parts.push(`downloaded from ${s.modelFile.uri}`);
  if (s.contextWindow) parts.push(`context ${s.contextWindow} tokens`);
  return { ...base, status: 'ok', detail: parts.join(', '), hint: 'Settings → Model → Test connection sends one tiny request.' };
}

