/** Channels to create, rename and delete memory notes; each refused when the state dir is read-only. */
import { z } from 'zod';
import { ch } from './define';
import type { MemoryFileText } from '../types/search';

const RelPath = z.string().min(1).max(1000);
const AgentId = z
  .string()
  .regex(/^[A-Za-z0-9_-]+$/, 'letters, digits, "-" and "_"')
  .max(100);

export const memoryNotesChannels = {
  /** A new note (e.g. `memory/ideas.md`); `conflict` when the name exists. */
  'memory.create': ch(z.object({ path: RelPath, text: z.string().max(10 * 1024 * 1024).default(''), agentId: AgentId.optional() })).returns<MemoryFileText>(),
  /** Rename a note; `conflict` when `to` exists or `from` changed since `expectedMtime`. */
  'memory.rename': ch(z.object({ from: RelPath, to: RelPath, expectedMtime: z.number().optional(), agentId: AgentId.optional() })).returns<MemoryFileText>(),
  /** Delete a note; `conflict` when it changed since `expectedMtime`. MEMORY.md is refused. */
  'memory.delete': ch(z.object({ path: RelPath, expectedMtime: z.number().optional(), agentId: AgentId.optional() })).returns<{ path: string }>(),
};
