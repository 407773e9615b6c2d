/** Channels for choosing a local chat model in place (the Chat page without a model). */
import { z } from 'zod';
import { ch } from './define';
import type { LlmStatus } from '../types/llm';
import type { LocalChatModels } from '../types/llm-local';

export type * from '../types/llm-local';

export const llmLocalChannels = {
  /** GGUF chat models on disk (the models dir, the demo model cache); embedding models are left out. No model load. */
  'llm.localModels': ch(z.object({}).strict()).returns<LocalChatModels>(),
  /**
   * Use a local GGUF file as the chat model: checks it is a GGUF chat model, then sets
   * `cairn.llm` to `{provider: "llama", modelPath}` (other llm keys are kept). Returns the new status.
   */
  'llm.useLocal': ch(z.object({ path: z.string().min(1).max(4096) }).strict()).returns<LlmStatus>(),
};
