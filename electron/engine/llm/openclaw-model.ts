/**
 * OpenClaw's own model choice as Cairn's chat model. An OpenClaw state dir
 * names its model in `openclaw.json`: `agents.defaults.model.primary` ("<provider>/<model>")
 * and, for custom providers, `models.providers.<provider>` with `baseUrl`, `api`
 * ("openai-completions" / "openai-responses" / "anthropic-messages"), `apiKey` and the
 * model's `contextWindow`/`maxTokens`. When `cairn.llm` chooses nothing (provider "none"),
 * Cairn uses that model where it speaks the wire — so doctor, chat and compaction work on
 * the dir as it is instead of saying "no chat model configured". `cairn.llm` always wins.
 */
import type { CairnConfig, LlmSettings } from '../config/schema';

/** OpenClaw's model as Cairn settings, or why Cairn cannot use it. */
export type OpenClawModel =
  | { settings: LlmSettings; source: string; keyFrom: string | undefined }
  | { problem: string; source: string };

/** OpenClaw provider apis and the Cairn provider that speaks them. */
const WIRE: Record<string, 'openai' | 'anthropic'> = {
  'openai-completions': 'openai',
  'openai-chat': 'openai',
  'openai-responses': 'openai',
  'anthropic-messages': 'anthropic',
};
/** Built-in OpenClaw provider ids Cairn can reach without a models.providers entry (the key from the environment). */
const BUILTIN: Record<string, 'openai' | 'anthropic'> = { openai: 'openai', anthropic: 'anthropic' };

const obj = (v: unknown): Record<string, unknown> | undefined => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined);
const posInt = (v: unknown): number | undefined => (typeof v === 'number' && Number.isInteger(v) && v > 0 ? v : undefined);

/** OpenClaw's primary model from the config, or undefined when openclaw.json names none. */
export function openClawModel(config: CairnConfig): OpenClawModel | undefined {
  const model = obj(obj(config.agents)?.defaults)?.model;
  const primary = typeof model === 'string' ? model : obj(model)?.primary;
  if (typeof primary !== 'string' || !primary.includes('/')) return undefined;
  const source = `openclaw.json agents.defaults.model.primary "${primary}"`;
  const slash = primary.indexOf('/');
  const providerId = primary.slice(0, slash);
  const modelId = primary.slice(slash + 1);
  const provider = obj(obj(obj((config as Record<string, unknown>).models)?.providers)?.[providerId]);
  if (!provider) {
    const builtin = BUILTIN[providerId];
    if (!builtin) return { source, problem: `provider "${providerId}" is not one Cairn can talk to (only OpenAI-compatible or Anthropic providers with a baseUrl in models.providers)` };
    return { source, keyFrom: undefined, settings: { provider: builtin, model: modelId, maxOutputTokens: 4096 } };
  }
  const api = typeof provider.api === 'string' ? provider.api : 'openai-completions';
  const wire = WIRE[api];
  if (!wire) return { source, problem: `models.providers.${providerId}.api "${api}" is not a wire Cairn speaks (OpenAI-compatible or Anthropic messages)` };
  const entry = Array.isArray(provider.models) ? provider.models.map(obj).find((m) => m?.id === modelId) : undefined;
  const settings: LlmSettings = { provider: wire, model: modelId, maxOutputTokens: posInt(entry?.maxTokens) ?? 4096 };
  if (typeof provider.baseUrl === 'string' && provider.baseUrl) settings.baseUrl = provider.baseUrl;
  // A string key: OpenClaw's env/file secret references were resolved when the config was loaded (config/secrets.ts).
  const keyFrom = typeof provider.apiKey === 'string' && provider.apiKey ? `openclaw.json models.providers.${providerId}.apiKey` : undefined;
  if (keyFrom) settings.apiKey = provider.apiKey as string;
  const cw = posInt(entry?.contextWindow);
  if (cw) settings.contextWindow = cw;
  return { source, keyFrom, settings };
}

/** The chat settings the engine uses: `cairn.llm`, else OpenClaw's usable primary model. */
export function effectiveLlmSettings(config: CairnConfig): { settings: LlmSettings; from?: OpenClawModel } {
  const own = config.cairn.llm;
  if (own.provider !== 'none') return { settings: own };
  const oc = openClawModel(config);
  if (!oc) return { settings: own };
  return 'settings' in oc ? { settings: oc.settings, from: oc } : { settings: own, from: oc };
}
