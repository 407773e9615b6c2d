/** Channels of the optional QMD memory backend (SPEC §9): its status and a manual refresh. */
import { z } from 'zod';
import { ch } from './define';
import type { QmdStatus } from '../types/qmd';

export type * from '../types/qmd';

const AgentId = z
  .string()
  .regex(/^[A-Za-z0-9_-]+$/, 'letters, digits, "-" and "_"')
  .max(100);

export const qmdChannels = {
  /** Which backend serves searches and, for QMD, its collections, last refresh and failures. */
  'qmd.status': ch(z.object({ agentId: AgentId.optional() })).returns<QmdStatus>(),
  /** Repair collections and run `qmd update` (+ `qmd embed`) now; refused when the backend is builtin. */
  'qmd.update': ch(z.object({ agentId: AgentId.optional() })).returns<QmdStatus>(),
};
