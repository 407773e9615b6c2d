/** Channels and events for embedding models (Settings → Memory search, `cairn doctor`). */
import { z } from 'zod';
import { ch, ev } from './define';
import type { ModelDownloadProgress, ModelsStatus } from '../types/models';

export type * from '../types/models';

export const modelsChannels = {
  /** Which embedder would be used and why, and which models are on disk (no network, no model load). */
  'models.status': ch(z.object({}).strict()).returns<ModelsStatus>(),
  /**
   * Download an embedding model into cairn/models/ — only when the user asks. `uri` defaults
   * to `memory.search.local.modelUri`. Progress as `models.progress`; cancel with `op.cancel`.
   */
  'models.download': ch(z.object({ uri: z.string().min(1).max(1000).optional() }).strict()).returns<{ path: string; uri: string }>(),
};

export const modelsEvents = {
  'models.progress': ev<ModelDownloadProgress>(),
};
