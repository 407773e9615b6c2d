/** Handlers of memory.create / memory.rename / memory.delete: writable check, the atomic step, then the index and watchers are told. */
import type { EngineContext } from '../core/context';
import type { Handlers } from '../rpc/dispatcher';

type NoteChannels = 'memory.create' | 'memory.rename' | 'memory.delete';

export function memoryNotesHandlers(ctx: EngineContext): Pick<Handlers, NoteChannels> {
  const run = async <T>(what: string, agent: string | undefined, fn: (roots: import('./memory-paths').MemoryPathRoots) => T, changed: (out: T) => string[]): Promise<T> => {
    // The memory modules' errors are EngineErrors already: they cross the contract as they are.
    const agentId = ctx.agentId(agent);
    ctx.assertWritable(what);
    const { memoryRegistry } = await import('./registry');
    const reg = memoryRegistry(ctx);
    const out = fn(reg.pathRoots(agentId));
    reg.notifyChanged(agentId, changed(out));
    return out;
  };
  return {
    'memory.create': async (req) => {
      const { createMemoryNote } = await import('./memory-notes');
      return run(`memory.create ${req.path}`, req.agentId, (roots) => createMemoryNote(roots, req.path, req.text), (o) => [o.path]);
    },
    'memory.rename': async (req) => {
      const { renameMemoryNote } = await import('./memory-notes');
      return run(`memory.rename ${req.from}`, req.agentId, (roots) => renameMemoryNote(roots, req.from, req.to, req.expectedMtime), (o) => [req.from, o.path]);
    },
    'memory.delete': async (req) => {
      const { deleteMemoryNote } = await import('./memory-notes');
      return run(`memory.delete ${req.path}`, req.agentId, (roots) => deleteMemoryNote(roots, req.path, req.expectedMtime), (o) => [o.path]);
    },
  };
}
