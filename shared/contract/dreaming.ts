/**
 * Channels of the dreaming views: MEMORY.md's history with the evidence behind its
 * promotions, and dreaming's own reports (OpenClaw's background memory consolidation).
 * All read-only: nothing in OpenClaw's dir is written.
 */
import { z } from 'zod';
import { ch } from './define';
import type { DreamingReports, DreamingReportText, MemoryHistory } from '../types/dreaming';

const AgentId = z
  .string()
  .regex(/^[A-Za-z0-9_-]+$/, 'letters, digits, "-" and "_"')
  .max(100);

export const dreamingChannels = {
  /** Every version of MEMORY.md Cairn can find, oldest first, with what each added and where its promotions came from. */
  'dreaming.history': ch(z.object({ agentId: AgentId.optional() }).strict()).returns<MemoryHistory>(),
  /** DREAMS.md, the phase reports and the blocks dreaming manages in daily notes. */
  'dreaming.reports': ch(z.object({ agentId: AgentId.optional() }).strict()).returns<DreamingReports>(),
  /** The text of one file `dreaming.reports` lists (any other path is refused). */
  'dreaming.report': ch(z.object({ path: z.string().min(1).max(1000), agentId: AgentId.optional() }).strict()).returns<DreamingReportText>(),
};
