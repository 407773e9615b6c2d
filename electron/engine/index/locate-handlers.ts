/**
 * `memory.locate`: a memory file's absolute path, and (desktop app only) handing it to the
 * system editor or file manager through the injected `EngineDeps.openPath` — the engine has
 * no Electron; electron/main passes `shell.openPath` / `shell.showItemInFolder`. The path is
 * checked by the same memory-file rules as memory.read (no `..`, no symlinks, .md only).
 */
import fs from 'node:fs';
import type { EngineContext } from '../core/context';
import type { Handlers } from '../rpc/dispatcher';
import { MemoryPathError, resolveMemoryPath } from './memory-paths';
import { memoryPathRoots } from './agent-settings';

export function memoryLocateHandlers(ctx: EngineContext): Pick<Handlers, 'memory.locate'> {
  return {
    'memory.locate': async ({ path: input, agentId, open }) => {
      const agent = ctx.agentId(agentId);
      const { abs } = resolveMemoryPath(memoryPathRoots(ctx, agent), input);
      if (!fs.existsSync(abs)) throw new MemoryPathError('not_found', `${input}: no such memory file`);
      if (!open) return { absPath: abs, opened: false };
      const openPath = ctx.deps.openPath;
      if (!openPath) return { absPath: abs, opened: false, reason: 'this window cannot open files on your computer (it is the browser UI of cairn serve): copy the path instead' };
      await openPath(abs, open);
      return { absPath: abs, opened: true };
    },
  };
}
