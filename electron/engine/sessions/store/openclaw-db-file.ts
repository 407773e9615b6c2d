/**
 * Where OpenClaw 2026.9 keeps an agent's SQLite store, on its own: `cairn search` asks whether
 * the file exists before it loads the store reader (openclaw-sqlite.ts) and the provenance
 * built on it — without the file there is nothing of theirs to add.
 */
import path from 'node:path';

/** The store's file for an agent dir (`agents/<agentId>`). */
export function openclawDbFile(stateDir: string, agentId: string): string {
  return path.join(stateDir, 'agents', agentId, 'agent', 'openclaw-agent.sqlite');
}
