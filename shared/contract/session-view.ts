/** Channels of the session overview: the token chart and the compaction history (UI). */
import { z } from 'zod';
import { ch } from './define';
import { SessionIdSchema } from './sessions';
import type { SessionOverview } from '../types/session-view';

export type * from '../types/session-view';

export const sessionViewChannels = {
  /**
   * Estimated context tokens after every entry along the branch (drops at compactions), every
   * compaction with tokens before → after, and the flush/compaction thresholds from the config.
   */
  'sessions.overview': ch(
    z.object({
      sessionId: SessionIdSchema,
      agentId: z.string().regex(/^[A-Za-z0-9_-]+$/).max(100).optional(),
    }),
  ).returns<SessionOverview>(),
};
