/** What the Settings page and `cairn doctor` show about the chat model (no Node imports). */

export type LlmProviderName = 'none' | 'llama' | 'openai' | 'anthropic';

export interface LlmStatus {
  /** The configured provider; an injected model (tests, embedding apps) reports its own name. */
  provider: LlmProviderName | (string & {});
  /** Model name (remote) or file name (local). */
  model?: string;
  baseUrl?: string;
  /** True when a chat can be attempted (provider set and nothing obviously missing). */
  configured: boolean;
  /** What is missing or wrong, with how to fix it. */
  problem?: string;
  /** Where the API key comes from. */
  keySource?: 'config' | 'env' | 'none' | 'openclaw';
  /** Set when the model is OpenClaw's (openclaw.json agents.defaults.model.primary), not cairn.llm's. */
  source?: string;
  /** Name of the env var read for the key (OPENAI_API_KEY / ANTHROPIC_API_KEY). */
  keyEnv?: string;
  /** The model's context window, when known (loaded local context, config, or a known model). */
  contextWindow?: number;
  /** Local provider: the GGUF file and whether it is present. */
  modelFile?: { path?: string; uri?: string; exists: boolean; sizeBytes?: number };
}

export interface LlmTestResult {
  ok: boolean;
  /** The reply text, or what went wrong and how to fix it. */
  message: string;
  latencyMs: number;
  provider: LlmProviderName;
  model?: string;
  /** The error's class (AuthError, ContextOverflowError, LlmHttpError, LocalModelError…). */
  errorKind?: string;
  /** The context window the model reported or the server was probed for. */
  contextWindow?: number;
}

export interface LlmDownloadProgress {
  opId?: string;
  downloadedBytes: number;
  totalBytes: number;
}
