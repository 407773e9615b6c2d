/**
 * Reading what a search result cites, whatever its form: `memory/2026-11-30.md#L3-L5`, a bare
 * memory path with optional `from`/`lines`, or a past session `sessions/<id>.jsonl#L5-L45`
 * (JSONL or OpenClaw's SQLite store, through sessions/citation.ts). `memory_get` over MCP and
 * `cairn get` both go through here, so an agent can always follow its own search result.
 */
import type { EngineContext } from '../core/context';
import { EngineError } from '../core/errors';

/** `path#L<s>[-L<e>]` split into the path and the cited range, or undefined for a plain path. */
export function parseCitation(input: string): { path: string; from: number; to: number } | undefined {
  const cite = /^(.*?)#L(\d+)(?:-L?(\d+))?$/.exec(input);
  if (!cite) return undefined;
  const from = Number(cite[2]);
  const to = cite[3] === undefined ? from : Number(cite[3]);
  if (from < 1) throw new EngineError('bad_request', `${JSON.stringify(input)}: line numbers start at 1 (got L${from})`);
  if (to < from) throw new EngineError('bad_request', `${JSON.stringify(input)}: the range ends (L${to}) before it starts (L${from})`);
  return { path: cite[1] ?? '', from, to };
}

/**
 * The text `input` names for `agentId`: `from`/`lines` (1-based) narrow a plain path and
 * override a citation's own range when given.
 */
export async function getCited(ctx: EngineContext, agentId: string, input: string, from?: number, lines?: number): Promise<{ path: string; text: string }> {
  const cited = parseCitation(input);
  const p = cited?.path ?? input;
  const start = from ?? cited?.from;
  const count = lines ?? (cited && from === undefined ? cited.to - cited.from + 1 : undefined);
  const [{ isSessionCitationPath, sessionCitation }, { memoryGet }, { memoryPathRoots }] = await Promise.all([
    import('./citation'),
    import('../index/memory-paths'),
    import('../index/agent-settings'),
  ]);
  if (isSessionCitationPath(p)) {
    const s = sessionCitation(ctx, agentId, p, start, count === undefined ? undefined : (start ?? 1) + count - 1);
    return { path: s.path, text: s.text };
  }
  return memoryGet(memoryPathRoots(ctx, agentId), p, start, count);
}
