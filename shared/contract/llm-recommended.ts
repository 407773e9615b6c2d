/** Channels of the recommended local chat models: the short list, and download-then-use in one call. */
import { z } from 'zod';
import { ch } from './define';
import type { LlmStatus } from '../types/llm';
import type { RecommendedModels } from '../types/llm-recommended';

export type * from '../types/llm-recommended';

export const llmRecommendedChannels = {
  /** The recommended small instruct GGUF models, with whether each is already downloaded. No network. */
  'llm.recommended': ch(z.object({}).strict()).returns<RecommendedModels>(),
  /**
   * Download one of them into the models dir (a partial file from an earlier try is resumed),
   * then make it the chat model. Progress as `llm.downloadProgress`; cancellable. Offline,
   * it fails at once with `unavailable` saying so.
   */
  'llm.downloadRecommended': ch(z.object({ id: z.string().min(1).max(100) }).strict()).returns<LlmStatus>(),
};
