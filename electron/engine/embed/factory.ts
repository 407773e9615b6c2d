/**
 * Choosing and creating the embedder (SPEC §6). Auto order: a local GGUF model if one is
 * present (`local.modelPath`, or the default model already downloaded into the models dir)
 * → OpenAI → Gemini → Voyage (whichever has a key) → the shipped static embeddings (potion).
 * An explicit `provider` wins; if it cannot be created, `fallback` (when set) is tried, else
 * the result is FTS-only with the reason. `provider: "none"` or `enabled: false` → FTS-only.
 *
 * `planEmbedder` decides without loading anything (for doctor and Status); `createEmbedder`
 * follows the plan and falls through to the next candidate when one fails to load.
 * node-llama-cpp is only imported when a GGUF model is actually used.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { MemorySearchSettings } from '../config/schema';
import { expandHome } from '../config/state-dir';
import type { Embedder } from './types';
import { createPotionEmbedder, POTION_MODEL_NAME, shippedPotionModel } from './potion';
import type { StaticModelCache } from './model-cache';
import { allowWorker } from './embed-worker';
import { findDownloadedModel } from './download';
import type { RemoteOptions } from './remote/http';
import { removeRetiredModels } from './retired-models';
import { CONFIG_SUGGESTIONS } from '../config/suggestions';

export type EmbedderProvider = 'local' | 'openai' | 'gemini' | 'voyage' | 'static';

/** Result of `createEmbedder`: no embedder means FTS-only, and `reason` says why. */
export interface EmbedderChoice {
  embedder?: Embedder;
  /** Human-readable: what was chosen and why (shown in Status, doctor, `cairn index`). */
  reason: string;
  /** Set when the first choice failed and a later one was used: the provider that failed. */
  fallbackFrom?: string;
  /** Every candidate considered before the chosen one, with why it was not used. */
  skipped: { provider: string; reason: string }[];
  /** A setting the chosen embedder could not honour, said once to the user (Status, stderr). */
  warning?: string;
}

export interface EmbedderFactoryOptions {
  /** `<state>/cairn/models` (AgentPaths.modelsDir). */
  modelsDir: string;
  /** Environment for API keys; defaults to process.env. */
  env?: NodeJS.ProcessEnv;
  signal?: AbortSignal;
  /** Progress of slow first-time work (loading a model). */
  onProgress?: (p: { what: string; done: number; total: number }) => void;
  /** Injected into remote embedders (tests: fetch, sleep). */
  remote?: Partial<RemoteOptions>;
  /** Where the static model is shared (the engine's STATIC_MODELS member); else the embedder holds its own. */
  staticModels?: StaticModelCache;
}

/** One candidate of a plan: enough to create it, or why it is unavailable. */
export interface PlannedCandidate {
  provider: EmbedderProvider;
  available: boolean;
  /** Why (un)available, e.g. "model file /x.gguf" or "no OPENAI_API_KEY". */
  detail: string;
  modelPath?: string;
  apiKey?: string;
  keySource?: string;
  /** A setting this candidate ignores (shown in `detail` too). */
  note?: string;
}

const ENV_KEYS: Record<'openai' | 'gemini' | 'voyage', string[]> = {
  openai: ['OPENAI_API_KEY'],
  gemini: ['GEMINI_API_KEY', 'GOOGLE_API_KEY'],
  voyage: ['VOYAGE_API_KEY'],
};

function localModelPath(settings: MemorySearchSettings, modelsDir: string): string | undefined {
  const p = settings.local.modelPath;
  if (!p) return undefined;
  // Relative paths are relative to the models dir, where downloads land.
  return path.resolve(modelsDir, expandHome(p));
}

async function planLocal(settings: MemorySearchSettings, modelsDir: string): Promise<PlannedCandidate> {
  const explicit = localModelPath(settings, modelsDir);
  if (explicit) {
    return fs.existsSync(explicit)
      ? { provider: 'local', available: true, detail: `model file ${explicit}`, modelPath: explicit }
      : { provider: 'local', available: false, detail: `local.modelPath ${explicit} does not exist` };
  }
  const found = await findDownloadedModel(settings.local.modelUri, modelsDir);
  return found
    ? { provider: 'local', available: true, detail: `downloaded model ${found}`, modelPath: found }
    : { provider: 'local', available: false, detail: `no local model (set local.modelPath, or download ${settings.local.modelUri})` };
}

function planRemote(provider: 'openai' | 'gemini' | 'voyage', settings: MemorySearchSettings, env: NodeJS.ProcessEnv, explicit: boolean): PlannedCandidate {
  // remote.apiKey belongs to the chosen remote provider; in auto mode that is OpenAI (OpenClaw's rule).
  const configKey = settings.remote.apiKey?.trim();
  if (configKey && (explicit || provider === 'openai')) {
    return { provider, available: true, detail: `key from ${CONFIG_SUGGESTIONS.remoteApiKey.keyPath}`, apiKey: configKey, keySource: CONFIG_SUGGESTIONS.remoteApiKey.keyPath };
  }
  for (const name of ENV_KEYS[provider]) {
    const v = env[name]?.trim();
    if (v) return { provider, available: true, detail: `key from ${name}`, apiKey: v, keySource: name };
  }
  return { provider, available: false, detail: `no API key (${ENV_KEYS[provider].join(' or ')}, or ${CONFIG_SUGGESTIONS.remoteApiKey.keyPath})` };
}

/**
 * What `memory.search.model` means to the static provider, which has one model: nothing when
 * unset or naming potion; else a note that it is ignored. The GloVe vectors of earlier
 * versions (`glove-100d-int8`, `-sif`) are named as such: their indexes rebuild once with
 * potion (another model in the index identity).
 */
function staticModelNote(settings: MemorySearchSettings): string | undefined {
  const asked = settings.provider === 'static' ? settings.model?.trim() : undefined;
  if (!asked || asked === POTION_MODEL_NAME) return undefined;
  const what = /glove/i.test(asked) ? 'names the GloVe static vectors, which Cairn no longer ships' : 'is not a static model';
  return `memory.search.model "${asked}" ${what}: using ${POTION_MODEL_NAME} (an index built with another model is rebuilt once)`;
}

function planStatic(settings: MemorySearchSettings): PlannedCandidate {
  const note = staticModelNote(settings);
  try {
    const detail = `static embeddings (${POTION_MODEL_NAME}, shipped)${note ? `; ${note}` : ''}`;
    return { provider: 'static', available: true, detail, modelPath: shippedPotionModel(), ...(note ? { note } : {}) };
  } catch (err) {
    return { provider: 'static', available: false, detail: (err as Error).message };
  }
}

async function planOne(p: EmbedderProvider, settings: MemorySearchSettings, o: EmbedderFactoryOptions, env: NodeJS.ProcessEnv, explicit: boolean): Promise<PlannedCandidate> {
  if (p === 'local') return planLocal(settings, o.modelsDir);
  if (p === 'static') return planStatic(settings);
  return planRemote(p, settings, env, explicit);
}

const isProvider = (p: string): p is EmbedderProvider => ['local', 'openai', 'gemini', 'voyage', 'static'].includes(p);

/** The candidates in the order they would be tried (no model is loaded, no request made). */
export async function planEmbedder(settings: MemorySearchSettings, o: EmbedderFactoryOptions): Promise<PlannedCandidate[]> {
  const env = o.env ?? process.env;
  if (!settings.enabled || settings.provider === 'none') return [];
  if (settings.provider !== 'auto') {
    const out = [await planOne(settings.provider, settings, o, env, true)];
    const fb = settings.fallback;
    if (fb && fb !== 'none' && fb !== settings.provider && isProvider(fb)) out.push(await planOne(fb, settings, o, env, true));
    return out;
  }
  const order: EmbedderProvider[] = ['local', 'openai', 'gemini', 'voyage', 'static'];
  const out: PlannedCandidate[] = [];
  for (const p of order) out.push(await planOne(p, settings, o, env, false));
  return out;
}

const MODEL_OWNER: [RegExp, EmbedderProvider][] = [
  [/^voyage-/, 'voyage'],
  [/^(models\/)?(gemini-|text-embedding-004$|embedding-001$)/, 'gemini'],
];

/** `settings.model` for this provider, or undefined for the provider's default. */
function modelFor(provider: EmbedderProvider, settings: MemorySearchSettings): string | undefined {
  const model = settings.model?.trim();
  if (!model || settings.provider === provider) return model || undefined;
  if (settings.provider !== 'auto') return undefined; // a fallback provider uses its own default
  const owner = MODEL_OWNER.find(([re]) => re.test(model))?.[1] ?? 'openai';
  return owner === provider ? model : undefined;
}

async function instantiate(c: PlannedCandidate, settings: MemorySearchSettings, o: EmbedderFactoryOptions): Promise<Embedder> {
  if (c.provider === 'static') {
    const file = c.modelPath as string;
    const emb = await createPotionEmbedder({ file, cache: o.staticModels });
    // Big indexing runs may embed in a worker thread that loads the same model (embed-worker.ts).
    return allowWorker(emb, { kind: 'potion', file });
  }
  if (c.provider === 'local') {
    const { createGgufEmbedder } = await import('./gguf');
    return createGgufEmbedder({ modelPath: c.modelPath as string, signal: o.signal });
  }
  // `remote.*` and `model` belong to the configured provider; in auto mode to OpenAI (like
  // remote.apiKey), except a model name that plainly belongs to another provider.
  const mine = settings.provider === c.provider || (settings.provider === 'auto' && c.provider === 'openai');
  const remote: RemoteOptions = {
    ...o.remote,
    apiKey: c.apiKey as string,
    keySource: c.keySource as string,
    baseUrl: mine ? settings.remote.baseUrl : undefined,
    headers: mine ? settings.remote.headers : undefined,
    model: modelFor(c.provider, settings),
  };
  if (c.provider === 'openai') return (await import('./remote/openai')).createOpenAiEmbedder(remote, o.signal);
  if (c.provider === 'gemini') return (await import('./remote/gemini')).createGeminiEmbedder(remote, o.signal);
  return (await import('./remote/voyage')).createVoyageEmbedder(remote, o.signal);
}

/**
 * Create the embedder the settings ask for (see the file header for the order). Never
 * throws for an unavailable provider — the reason is in the result; only an abort throws.
 */
export async function createEmbedder(settings: MemorySearchSettings, o: EmbedderFactoryOptions): Promise<EmbedderChoice> {
  if (!settings.enabled) return { reason: 'memory search is disabled (memorySearch.enabled: false): no embedder', skipped: [] };
  if (settings.provider === 'none') return { reason: 'provider "none": full-text search only', skipped: [] };
  removeRetiredModels(o.modelsDir);
  const plan = await planEmbedder(settings, o);
  const skipped: EmbedderChoice['skipped'] = [];
  let firstFailed: string | undefined;
  for (const c of plan) {
    if (!c.available) {
      skipped.push({ provider: c.provider, reason: c.detail });
      // In auto mode a missing key or model is expected, not a failure; an explicit choice is.
      if (settings.provider !== 'auto') firstFailed ??= c.provider;
      continue;
    }
    try {
      const embedder = await instantiate(c, settings, o);
      const how = settings.provider === 'auto' ? 'auto' : c.provider === settings.provider ? 'configured' : `fallback for ${settings.provider}`;
      return { embedder, reason: `${embedder.id} (${how}: ${c.detail})`, fallbackFrom: firstFailed, skipped, ...(c.note ? { warning: c.note } : {}) };
    } catch (err) {
      if (o.signal?.aborted) throw err;
      skipped.push({ provider: c.provider, reason: (err as Error).message });
      firstFailed ??= c.provider;
    }
  }
  const why = skipped.map((s) => `${s.provider}: ${s.reason}`).join('; ');
  return { reason: `no embedder available (${why}): full-text search only`, fallbackFrom: firstFailed, skipped };
}

/**
 * The `EngineDeps.createEmbedder` shape the index registry calls: the embedder, or null for
 * FTS-only. A fallback or a missing embedder is reported through `warn` (Status shows it).
 */
export async function createEmbedderForSettings(
  settings: MemorySearchSettings,
  opts: Omit<EmbedderFactoryOptions, 'remote'> & { agentId?: string; warn?: (message: string) => void },
): Promise<Embedder | null> {
  const choice = await createEmbedder(settings, opts);
  const warn = opts.warn ?? ((m: string) => console.warn(`cairn: ${m}`));
  if (choice.fallbackFrom || (!choice.embedder && settings.enabled && settings.provider !== 'none')) {
    warn(`memory search embedder: ${choice.reason}`);
  } else if (choice.warning) {
    warn(`memory search embedder: ${choice.warning}`);
  }
  return choice.embedder ?? null;
}
