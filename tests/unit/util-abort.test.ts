/**
 * Every cancellation of the engine is one kind of error (issue 11.5): an Error named
 * AbortError with a message saying what was cancelled, so the dispatcher answers `cancelled`
 * for all of them; a cancellation forwarded from further up keeps its own error.
 */
import { describe, expect, it } from 'vitest';
import { abortError, isAbortError, throwIfAborted } from '../../electron/engine/util/abort';
import { createEngine } from '../../electron/engine/engine';
import { memoryRegistry } from '../../electron/engine/index/registry';
import { tmpDir, writeTree } from '../helpers/tmp';

describe('abort errors', () => {
  it('say what was cancelled, and pass a forwarded AbortError through', () => {
    const ac = new AbortController();
    ac.abort();
    const e = abortError(ac.signal, 'indexing cancelled');
    expect(e).toBeInstanceOf(Error);
    expect(e.name).toBe('AbortError');
    const forwarded = abortError(undefined, 'the model call was cancelled');
    const up = new AbortController();
    up.abort(forwarded);
    expect(abortError(up.signal, 'compaction cancelled')).toBe(forwarded);
  });

  it("keep a non-abort reason apart unless asked ('any')", () => {
    const timeout = new Error('timed out after 900s');
    const ac = new AbortController();
    ac.abort(timeout);
    expect(abortError(ac.signal, 'compaction cancelled').message).toBe('compaction cancelled');
    expect(abortError(ac.signal, 'x', 'any')).toBe(timeout);
    expect(() => throwIfAborted(ac.signal, 'x', 'any')).toThrow(timeout);
    expect(() => throwIfAborted(new AbortController().signal, 'x')).not.toThrow();
    expect(isAbortError(new Error('boom'))).toBe(false);
    expect(isAbortError(new Error('boom'), ac.signal)).toBe(true);
  });

  it('a cancelled index sync rejects with an AbortError saying so', async () => {
    const stateDir = tmpDir('cairn-abort-');
    writeTree(stateDir, { 'cairn/state.json': '{}', 'workspace/MEMORY.md': '# Notes\n\nA note.\n' });
    const engine = createEngine({ stateDir, deps: { createEmbedder: async () => null } });
    try {
      const ac = new AbortController();
      ac.abort();
      await expect(memoryRegistry(engine.ctx).sync('main', { signal: ac.signal, force: true })).rejects.toMatchObject({ name: 'AbortError', message: 'indexing cancelled' });
    } finally {
      await engine.dispose();
    }
  });
});
