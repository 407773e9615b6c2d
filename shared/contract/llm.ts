/** Channels and events of the chat model (Settings → Model, `cairn doctor`, `cairn llm`). */
import { z } from 'zod';
import { ch, ev } from './define';
import type { LlmDownloadProgress, LlmStatus, LlmTestResult } from '../types/llm';

export type * from '../types/llm';

const NoArgs = z.object({}).strict();

export const llmChannels = {
  /** What `cairn.llm` describes and whether it can work (no network call). */
  'llm.status': ch(NoArgs).returns<LlmStatus>(),
  /** Test connection: one tiny request; ok or the error with how to fix it, and the latency. */
  'llm.test': ch(NoArgs).returns<LlmTestResult>(),
  /** Download `cairn.llm.modelUri` into cairn/models/ (only on request); progress as `llm.downloadProgress`, cancellable. */
  'llm.download': ch(NoArgs).returns<{ path: string; uri: string }>(),
};

export const llmEvents = {
  'llm.downloadProgress': ev<LlmDownloadProgress>(),
};
