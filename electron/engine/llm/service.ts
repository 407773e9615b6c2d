/**
 * The engine's chat model: one LLM per engine, built from `cairn.llm` (or by the injected
 * `deps.createLlm`), rebuilt when those settings change, disposed with the engine. Callers
 * that need a model and get none raise `unavailable` with the reason.
 */
import type { ContextSlot, EngineContext } from '../core/context';
import { EngineError } from '../core/errors';
import type { LLM } from './types';
import { createLlm, describeLlm, LlmConfigError } from './factory';
import { effectiveLlmSettings } from './openclaw-model';

interface Cached {
  key: string | null;
  llm: LLM | undefined;
}

/** The engine's model and the settings it was built from: a context member, released with the engine. */
const modelSlot: ContextSlot<Cached> = {
  name: 'chat model',
  create: () => ({ key: null, llm: undefined }),
  dispose: (c) => c.llm?.dispose(),
};

/** The default `deps.createLlm`: the factory over the context's config, env and models dir. */
export function defaultCreateLlm(ctx: EngineContext): LLM | undefined {
  // cairn.llm, else the model openclaw.json names (openclaw-model.ts).
  return createLlm(effectiveLlmSettings(ctx.config().config).settings, { env: ctx.env(), modelsDir: ctx.paths().modelsDir, baseDir: ctx.stateDir });
}

/**
 * The engine's LLM (undefined for provider "none"). Throws LlmConfigError when the settings
 * name a provider that cannot work (no key, no model).
 */
export function engineLlm(ctx: EngineContext): LLM | undefined {
  const key = JSON.stringify(effectiveLlmSettings(ctx.config().config).settings);
  const hit = ctx.member(modelSlot);
  if (hit.key === key) return hit.llm;
  const old = hit.llm;
  const llm = (ctx.deps.createLlm ?? defaultCreateLlm)(ctx);
  hit.key = key;
  hit.llm = llm;
  // A model built from the old settings is released in the background.
  if (old && old !== llm) void old.dispose().catch((err: Error) => ctx.warn(`releasing the previous chat model: ${err.message}`));
  return llm;
}

/** The engine's LLM, or an `unavailable` EngineError saying why there is none. */
export function requireLlm(ctx: EngineContext): LLM {
  let llm: LLM | undefined;
  try {
    llm = engineLlm(ctx);
  } catch (err) {
    if (err instanceof LlmConfigError) throw new EngineError('unavailable', `no model configured: ${err.message}`);
    throw err;
  }
  if (!llm) {
    const why = describeLlm(effectiveLlmSettings(ctx.config().config).settings, { modelsDir: ctx.paths().modelsDir }).problem;
    throw new EngineError('unavailable', `no model configured${why ? `: ${why.replace(/^no chat model configured: /, '')}` : ''}`);
  }
  return llm;
}
