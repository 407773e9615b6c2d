/** Opening a memory file outside Cairn: in the system editor or its folder (desktop app), or its absolute path to copy (browser). */
import { z } from 'zod';
import { ch } from './define';

export interface MemoryLocateResult {
  /** The file's absolute path on disk (what "Copy path" copies). */
  absPath: string;
  /** True when the file was handed to the system editor / file manager. */
  opened: boolean;
  /** Why it was not opened (the browser window cannot: copy the path instead). */
  reason?: string;
}

export const memoryOpenChannels = {
  /**
   * Where a memory file is on disk; with `open`, also hand it to the system: `editor` opens it
   * with the default app, `folder` reveals it in the file manager. Only the desktop app can
   * (`opened: false` with the reason under `cairn serve`). The path follows memory.read's rules.
   */
  'memory.locate': ch(
    z
      .object({
        path: z.string().min(1).max(1000),
        agentId: z.string().regex(/^[A-Za-z0-9_-]+$/).max(100).optional(),
        open: z.enum(['editor', 'folder']).optional(),
      })
      .strict(),
  ).returns<MemoryLocateResult>(),
};
