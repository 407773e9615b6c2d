/**
 * JSON-RPC error answers the MCP SDK's stdio transport does not send (issue 10 item 10).
 * StdioServerTransport reports a line that is not JSON, or JSON that is not a JSON-RPC
 * message, only to `onerror` and answers nothing, so a client waits forever on a typo. JSON-RPC
 * 2.0 §5.1 says to answer with id null: -32700 "Parse error" for invalid JSON, -32600
 * "Invalid Request" for a value that is not a request. The SDK provides the codes (ErrorCode)
 * but no hook that sends them, so this wraps the transport's `onerror` after connect.
 */
import { ErrorCode, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';

/** The error answer for a transport error, or undefined when it is not about one input line. */
export function protocolErrorFor(err: unknown): { code: number; message: string } | undefined {
  if (err instanceof SyntaxError) return { code: ErrorCode.ParseError, message: `Parse error: ${err.message}` };
  if (err instanceof Error && err.name === 'ZodError') return { code: ErrorCode.InvalidRequest, message: 'Invalid Request: not a JSON-RPC 2.0 message' };
  return undefined;
}

/** After `server.connect(transport)`: answer unparseable or invalid lines instead of dropping them. */
export function answerProtocolErrors(transport: Transport): void {
  const onerror = transport.onerror;
  transport.onerror = (err) => {
    const e = protocolErrorFor(err);
    if (e) {
      // id null: the id of a line that did not parse cannot be known (JSON-RPC 2.0 §5).
      const msg = { jsonrpc: '2.0', id: null, error: e } as unknown as JSONRPCMessage;
      void transport.send(msg).catch(() => {});
    }
    onerror?.(err);
  };
}
