/**
 * Settings (`cairn.llm`) → an LLM. Keys come from the config or the environment
 * (OPENAI_API_KEY, ANTHROPIC_API_KEY); provider "none" gives no model. A provider that is
 * chosen but cannot work (no model name, no key for a hosted API) is an LlmConfigError that
 * says which key to set — the turn loop shows it as "unavailable".
 */
import fs from 'node:fs';
import path from 'node:path';
import type { LlmSettings } from '../config/schema';
import { expandHome } from '../config/state-dir';
import type { LlmStatus } from '../../../shared/types/llm';
import type { LLM } from './types';
import { OpenAiCompatibleLlm } from './openai';
import { AnthropicLlm, DEFAULT_ANTHROPIC_URL } from './anthropic';
import { LlamaLlm } from './llama';
import { downloadedPath } from './llama-download';
import type { HttpDeps } from './http';
import { EngineError } from '../core/errors';

/** Used when `cairn.llm.baseUrl` is not set for provider "openai". */
export const DEFAULT_OPENAI_URL = 'https://api.openai.com';
/** Used when `cairn.llm.model` is not set for provider "anthropic". */
export const DEFAULT_ANTHROPIC_MODEL = 'claude-sonnet-4-5';

/** The `cairn.llm` settings cannot make a working model; the message names the key to set. */
export class LlmConfigError extends EngineError {
  constructor(message: string) {
    super('unavailable', message);
    this.name = 'LlmConfigError';
  }
}

/** What the factory needs besides the settings. */
export interface CreateLlmOptions {
  env?: NodeJS.ProcessEnv;
  /** `<state>/cairn/models`: where downloaded GGUF models live. */
  modelsDir: string;
  /** Base for a relative modelPath (the state dir). */
  baseDir?: string;
  /** Injected HTTP pieces (tests). */
  http?: HttpDeps;
}

interface KeyInfo {
  key: string | undefined;
  source: 'config' | 'env' | 'none';
  env: string;
  hint: string;
}

function keyFor(settings: LlmSettings, envName: string, env: NodeJS.ProcessEnv): KeyInfo {
  if (settings.apiKey) return { key: settings.apiKey, source: 'config', env: envName, hint: 'the key comes from cairn.llm.apiKey in cairn.json: check or replace it' };
  const fromEnv = env[envName];
  if (fromEnv) return { key: fromEnv, source: 'env', env: envName, hint: `the key comes from the ${envName} environment variable: check or replace it` };
  return { key: undefined, source: 'none', env: envName, hint: `no API key is set: set cairn.llm.apiKey or the ${envName} environment variable` };
}

function localModelPath(settings: LlmSettings, opts: CreateLlmOptions): string | undefined {
  if (!settings.modelPath) return undefined;
  return path.resolve(opts.baseDir ?? process.cwd(), expandHome(settings.modelPath));
}

/** What the settings describe, without building anything (for status and doctor). */
export function describeLlm(settings: LlmSettings, opts: CreateLlmOptions): LlmStatus {
  const env = opts.env ?? process.env;
  const base: LlmStatus = { provider: settings.provider, configured: false };
  if (settings.contextWindow) base.contextWindow = settings.contextWindow;
  switch (settings.provider) {
    case 'none':
      return { ...base, problem: 'no chat model configured: choose a provider in Settings → Model (cairn.llm.provider)' };
    case 'openai': {
      const baseUrl = settings.baseUrl ?? DEFAULT_OPENAI_URL;
      const k = keyFor(settings, 'OPENAI_API_KEY', env);
      const s: LlmStatus = { ...base, baseUrl, keySource: k.source, keyEnv: k.env };
      if (settings.model) s.model = settings.model;
      if (!settings.model) return { ...s, problem: 'cairn.llm.model is not set: name the model the server serves (e.g. "qwen3:8b" for Ollama, "gpt-4.1-mini" for OpenAI)' };
      if (!k.key && /api\.openai\.com/.test(baseUrl)) return { ...s, problem: `api.openai.com needs a key: ${k.hint}` };
      return { ...s, configured: true };
    }
    case 'anthropic': {
      const k = keyFor(settings, 'ANTHROPIC_API_KEY', env);
      const s: LlmStatus = { ...base, baseUrl: settings.baseUrl ?? DEFAULT_ANTHROPIC_URL, model: settings.model ?? DEFAULT_ANTHROPIC_MODEL, keySource: k.source, keyEnv: k.env };
      if (!k.key) return { ...s, problem: `the Anthropic API needs a key: ${k.hint}` };
      return { ...s, configured: true };
    }
    case 'llama': {
      const file = localModelPath(settings, opts);
      if (file) {
        const st = fs.statSync(file, { throwIfNoEntry: false });
        const s: LlmStatus = { ...base, model: path.basename(file), modelFile: { path: file, exists: Boolean(st?.isFile()), ...(st ? { sizeBytes: st.size } : {}) } };
        return st?.isFile() ? { ...s, configured: true } : { ...s, problem: `local chat model not found: ${file} (cairn.llm.modelPath)` };
      }
      if (settings.modelUri) {
        const got = downloadedPath(opts.modelsDir, settings.modelUri);
        if (!got) return { ...base, model: settings.modelUri, modelFile: { uri: settings.modelUri, exists: false }, problem: `the model ${settings.modelUri} is not downloaded yet: download it in Settings or with "cairn llm download"` };
        const size = fs.statSync(got).size;
        return { ...base, model: path.basename(got), modelFile: { uri: settings.modelUri, path: got, exists: true, sizeBytes: size }, configured: true };
      }
      return { ...base, problem: 'no local model: set cairn.llm.modelPath to a GGUF chat model, or cairn.llm.modelUri (hf:…) and download it' };
    }
  }
}

/** Build the LLM for `settings`; undefined for provider "none"; LlmConfigError when misconfigured. */
export function createLlm(settings: LlmSettings, opts: CreateLlmOptions): LLM | undefined {
  const env = opts.env ?? process.env;
  const status = describeLlm(settings, opts);
  if (settings.provider === 'none') return undefined;
  // A missing local file is reported when the model is first used, with the same message.
  if (!status.configured && settings.provider !== 'llama') throw new LlmConfigError(status.problem ?? 'the chat model is not configured');
  const http = opts.http ? { deps: opts.http } : {};
  switch (settings.provider) {
    case 'openai': {
      const k = keyFor(settings, 'OPENAI_API_KEY', env);
      return new OpenAiCompatibleLlm({
        baseUrl: status.baseUrl ?? DEFAULT_OPENAI_URL,
        model: settings.model as string,
        apiKey: k.key,
        keyHint: k.hint,
        contextWindow: settings.contextWindow,
        maxOutputTokens: settings.maxOutputTokens,
        ...http,
      });
    }
    case 'anthropic': {
      const k = keyFor(settings, 'ANTHROPIC_API_KEY', env);
      return new AnthropicLlm({
        baseUrl: status.baseUrl,
        model: status.model ?? DEFAULT_ANTHROPIC_MODEL,
        apiKey: k.key,
        keyHint: k.hint,
        contextWindow: settings.contextWindow,
        maxOutputTokens: settings.maxOutputTokens,
        ...http,
      });
    }
    case 'llama':
      return new LlamaLlm({
        modelPath: localModelPath(settings, opts),
        modelUri: settings.modelUri,
        modelsDir: opts.modelsDir,
        contextSize: settings.contextWindow,
        maxOutputTokens: settings.maxOutputTokens,
        threads: settings.threads,
      });
  }
}
