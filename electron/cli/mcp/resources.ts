/**
 * The memory files as MCP resources: `cairn-memory:///<workspace-relative path>` for each file
 * of the memory set (MEMORY.md, daily notes, other notes, extra paths), listed and read
 * through the engine's own `memory.list` / `memory.read` channels (the memory browser's path
 * rules), and change notifications when the engine's watcher sees an edit (`memory.changed`).
 */
import { ResourceNotFoundError, ResourceTemplate, type McpServer } from '@modelcontextprotocol/server';
import type { Engine } from '../../engine/engine';

/** The URI scheme of a memory file resource. */
export const MEMORY_URI_PREFIX = 'cairn-memory:///';

/** The resource URI of a workspace-relative memory path. */
export function memoryUri(p: string): string {
  return MEMORY_URI_PREFIX + p.split('/').map(encodeURIComponent).join('/');
}

async function call<T>(engine: Engine, channel: 'memory.list' | 'memory.read', request: Record<string, unknown>): Promise<T> {
  const res = await engine.dispatcher.dispatch(channel, request);
  if (!res.ok) throw new Error(res.error.message);
  return res.value as T;
}

/** Register the memory files of `agentId` as resources on `server`. */
export function registerMemoryResources(server: McpServer, engine: Engine, agentId: string): void {
  const template = new ResourceTemplate(`${MEMORY_URI_PREFIX}{+path}`, {
    list: async () => {
      const { files } = await call<{ files: { path: string; kind: string; size: number; mtime: number }[] }>(engine, 'memory.list', { agentId });
      return {
        resources: files.map((f) => ({
          uri: memoryUri(f.path),
          name: f.path,
          mimeType: 'text/markdown',
          size: f.size,
          description: `${f.kind} memory file`,
          annotations: { lastModified: new Date(f.mtime).toISOString() },
        })),
      };
    },
  });
  server.registerResource('memory', template, { description: 'A memory file (MEMORY.md, memory/*.md, extra paths)', mimeType: 'text/markdown' }, async (uri) => {
    const p = decodeURIComponent(uri.href.slice(MEMORY_URI_PREFIX.length));
    // A path the memory rules refuse, or no such file: the resource does not exist (-32602, with why).
    const f = await call<{ path: string; text: string }>(engine, 'memory.read', { agentId, path: p }).catch((err: Error) => {
      throw new ResourceNotFoundError(uri.href, `${uri.href}: ${err.message}`);
    });
    return { contents: [{ uri: memoryUri(f.path), mimeType: 'text/markdown', text: f.text }] };
  });
}

/** The URIs each 2025-era instance's client subscribed to (`resources/subscribe`). */
const subscriptions = new WeakMap<McpServer, Set<string>>();

/**
 * 2025-era `resources/subscribe` / `resources/unsubscribe` on `server` (whose capabilities
 * declare `resources.subscribe`): `resources/updated` then goes only to subscribed URIs, as
 * that revision says. 2026-07-28 clients subscribe through `subscriptions/listen`, which the
 * SDK's serving entry routes itself.
 */
export function acceptSubscriptions(server: McpServer): void {
  const subs = new Set<string>();
  subscriptions.set(server, subs);
  server.server.setRequestHandler('resources/subscribe', (req) => {
    subs.add(req.params.uri);
    return {};
  });
  server.server.setRequestHandler('resources/unsubscribe', (req) => {
    subs.delete(req.params.uri);
    return {};
  });
}

/** Whether `resources/updated` for `uri` is for `server`'s client (always, unless it is a 2025-era one that did not subscribe). */
export function wantsUpdate(server: McpServer, uri: string): boolean {
  const subs = subscriptions.get(server);
  return subs === undefined || subs.has(uri);
}

/**
 * Call `onChange(uris)` whenever the engine reports edited memory files of `agentId` (its
 * watcher, or a write through the engine). Returns the unsubscribe function.
 */
export function onMemoryChanged(engine: Engine, agentId: string, onChange: (uris: string[]) => void): () => void {
  return engine.events.on('memory.changed', (e) => {
    if (e.agentId === agentId) onChange(e.paths.map(memoryUri));
  });
}
