/**
 * Waiting for the MCP requests still being answered when the client closes its end of
 * stdio. A client may write its requests and close stdin at once (`printf … | cairn mcp`);
 * closing the server there dropped every answer not yet written. This counts requests in
 * and responses out on the transport and resolves when none is left.
 */
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';

type Id = string | number;

function requestId(msg: unknown): Id | undefined {
  if (typeof msg !== 'object' || msg === null || !('id' in msg)) return undefined;
  const id = (msg as { id: unknown }).id;
  return typeof id === 'string' || typeof id === 'number' ? id : undefined;
}

/**
 * Track `transport` (call after `server.connect(transport)`, which sets its `onmessage`).
 * `drained()` resolves once every request received so far has had its response sent.
 */
export function trackInFlight(transport: Transport): { drained(): Promise<void> } {
  const pending = new Set<Id>();
  let wake: (() => void) | undefined;
  const onmessage = transport.onmessage;
  const settle = (id: Id) => {
    pending.delete(id);
    if (pending.size === 0) wake?.();
  };
  transport.onmessage = (msg, extra) => {
    const id = requestId(msg);
    if (id !== undefined && 'method' in msg) pending.add(id);
    // A request the client cancelled gets no response (MCP spec): stop waiting for it.
    if ('method' in msg && msg.method === 'notifications/cancelled') {
      const cancelled = (msg.params as { requestId?: unknown } | undefined)?.requestId;
      if (typeof cancelled === 'string' || typeof cancelled === 'number') settle(cancelled);
    }
    onmessage?.(msg, extra);
  };
  const send = transport.send.bind(transport);
  transport.send = async (msg, opts) => {
    try {
      await send(msg, opts);
    } finally {
      const id = requestId(msg);
      if (id !== undefined && !('method' in msg)) settle(id);
    }
  };
  return {
    drained: () => (pending.size === 0 ? Promise.resolve() : new Promise<void>((resolve) => (wake = resolve))),
  };
}
