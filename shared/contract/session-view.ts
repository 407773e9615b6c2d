/** Channels of the session overview: the token chart and the compaction history (UI). */
import { z } from 'zod';
import { ch } from './define';
import type { SessionOverview } from '../types/session-view';

export type * from '../types/session-view';

export const sessionViewChannels = {
  /**
   * Estimated context tokens after every entry along the branch (drops at compactions), every
   * compaction with tokens before → after, and the flush/compaction thresholds from the config.
   */
  'sessions.overview': ch(
    z.object({
      sessionId: z.string().regex(/^[A-Za-z0-9._-]+$/, 'a session id').max(200),
      agentId: z.string().regex(/^[A-Za-z0-9_-]+$/).max(100).optional(),
    }),
  ).returns<SessionOverview>(),
};
