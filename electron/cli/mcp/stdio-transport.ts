/**
 * The stdio wire of `cairn mcp`: newline-delimited JSON-RPC on stdin/stdout, as the MCP stdio
 * binding says, handed to the SDK's `serveStdio` (which owns the protocol: eras, handshake,
 * `server/discover`). It replaces the SDK's StdioServerTransport for three things a client
 * must be able to rely on:
 *
 * - **No silent exit on a big line.** The SDK's reader caps its whole buffer (10 MB), then
 *   closes the transport, and the process ended with exit 0 and no word. Here a line over
 *   `maxLineBytes` is skipped as it streams in (never buffered) and answered with JSON-RPC
 *   -32600 naming the limit; the next line is served as usual.
 * - **No silent drop of a bad line.** A line that is not JSON gets -32700 and one that is not
 *   a JSON-RPC message -32600 (JSON-RPC 2.0 §5.1, id null: the id cannot be known); the SDK's
 *   reader skips the first and closes on neither, answering nothing.
 * - **Answers before exit.** A client may write its requests and close stdin at once
 *   (`printf … | cairn mcp`): the transport closes only once every request received so far
 *   has its response written (a cancelled request needs none).
 */
import type { Readable, Writable } from 'node:stream';
import { deserializeMessage, INVALID_REQUEST, PARSE_ERROR, serializeMessage, type JSONRPCMessage, type Transport } from '@modelcontextprotocol/server';

type Id = string | number;

function requestId(msg: unknown): Id | undefined {
  if (typeof msg !== 'object' || msg === null || !('id' in msg) || !('method' in msg)) return undefined;
  const id = (msg as { id: unknown }).id;
  return typeof id === 'string' || typeof id === 'number' ? id : undefined;
}

/**
 * The SDK answers a request whose params do not fit (`arguments: null`, a `__proto__` key in
 * place of `name`) with -32602 and zod's issue list as raw JSON in the message; a client shows
 * that message to a person. This renders the list as one line per issue: `params.arguments:
 * expected an object, received null`.
 */
export function readableError(msg: JSONRPCMessage): JSONRPCMessage {
  if (!('error' in msg)) return msg;
  const m = /^(Invalid [^:]+): (\[[\s\S]*\])$/.exec(msg.error.message);
  if (!m) return msg;
  let issues: unknown;
  try {
    issues = JSON.parse(m[2] ?? '');
  } catch {
    return msg;
  }
  if (!Array.isArray(issues)) return msg;
  const lines = issues.map((i: { path?: unknown[]; message?: string }) => {
    const where = Array.isArray(i.path) && i.path.length ? i.path.map(String).join('.') : 'params';
    return `${where}: ${String(i.message ?? 'invalid').replace(/^Invalid input: /, '').replace('expected record', 'expected an object')}`;
  });
  return { ...msg, error: { ...msg.error, message: `${m[1]}: ${lines.join('; ')}` } };
}

/** The id of a line that parsed as JSON but is not a valid message, when it has a usable one. */
function idOf(line: string): Id | null {
  try {
    const v: unknown = JSON.parse(line);
    const id = typeof v === 'object' && v !== null && 'id' in v ? (v as { id: unknown }).id : null;
    return typeof id === 'string' || typeof id === 'number' ? id : null;
  } catch {
    return null;
  }
}

function responseId(msg: JSONRPCMessage): Id | undefined {
  if ('method' in msg || !('id' in msg)) return undefined;
  const id: unknown = msg.id;
  return typeof id === 'string' || typeof id === 'number' ? id : undefined;
}

/** A newline-delimited JSON-RPC transport over a readable and a writable stream. */
export class LineTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private parts: Buffer[] = [];
  private size = 0;
  /** Inside a line over the limit: its bytes are dropped up to its newline. */
  private skipping = false;
  private closed = false;
  private readonly pending = new Set<Id>();
  private ended = false;
  private resolveDone: () => void = () => {};
  /** Resolves when the transport has closed (whoever set `onclose`). */
  readonly done: Promise<void> = new Promise<void>((resolve) => (this.resolveDone = resolve));

  constructor(
    private readonly input: Readable,
    private readonly output: Writable,
    private readonly maxLineBytes: number,
  ) {}

  async start(): Promise<void> {
    this.input.on('data', this.onData);
    this.input.on('end', this.onEnd);
    this.input.on('close', this.onEnd);
    this.input.on('error', (err: Error) => this.onerror?.(err));
    // A reader gone away (EPIPE): nothing more can be answered.
    this.output.on('error', (err: Error) => {
      if (this.closed) return;
      this.onerror?.(err);
      void this.close();
    });
  }

  private readonly onData = (chunk: Buffer) => {
    let at = 0;
    for (;;) {
      const nl = chunk.indexOf(0x0a, at);
      const piece = chunk.subarray(at, nl === -1 ? chunk.length : nl);
      if (!this.skipping) {
        if (this.size + piece.length > this.maxLineBytes) this.startSkipping();
        else {
          this.parts.push(piece);
          this.size += piece.length;
        }
      }
      if (nl === -1) return;
      at = nl + 1;
      this.endLine();
    }
  };

  private startSkipping(): void {
    this.skipping = true;
    this.parts = [];
    this.size = 0;
  }

  private endLine(): void {
    if (this.skipping) {
      this.skipping = false;
      this.answerError(INVALID_REQUEST, `Invalid Request: a message over the limit of ${this.maxLineBytes} bytes (one JSON-RPC message per line) was skipped`);
      return;
    }
    const line = Buffer.concat(this.parts).toString('utf8').replace(/\r$/, '');
    this.parts = [];
    this.size = 0;
    if (line.trim() === '') return;
    let msg: JSONRPCMessage;
    try {
      msg = deserializeMessage(line);
    } catch (err) {
      if (err instanceof SyntaxError) this.answerError(PARSE_ERROR, `Parse error: ${err.message}`);
      else this.answerError(INVALID_REQUEST, 'Invalid Request: not a JSON-RPC 2.0 message (params, when given, must be an object or an array)', idOf(line));
      return;
    }
    const id = requestId(msg);
    if (id !== undefined) this.pending.add(id);
    // A request the client cancelled gets no response (MCP spec): stop waiting for it.
    if ('method' in msg && msg.method === 'notifications/cancelled') {
      const cancelled = (msg.params as { requestId?: unknown } | undefined)?.requestId;
      if (typeof cancelled === 'string' || typeof cancelled === 'number') this.settle(cancelled);
    }
    this.onmessage?.(msg);
  }

  private answerError(code: number, message: string, id: Id | null = null): void {
    const msg = { jsonrpc: '2.0', id, error: { code, message } } as unknown as JSONRPCMessage;
    this.write(msg).catch(() => {});
  }

  private settle(id: Id): void {
    this.pending.delete(id);
    if (this.ended && this.pending.size === 0) void this.close();
  }

  private readonly onEnd = () => {
    if (this.ended) return;
    this.ended = true;
    if (this.pending.size === 0) void this.close();
  };

  private write(msg: JSONRPCMessage): Promise<void> {
    if (this.closed) return Promise.reject(new Error('the stdio transport is closed'));
    return new Promise((resolve, reject) => {
      this.output.write(serializeMessage(msg), (err) => (err ? reject(err) : resolve()));
    });
  }

  async send(msg: JSONRPCMessage): Promise<void> {
    try {
      await this.write(readableError(msg));
    } finally {
      const id = responseId(msg);
      if (id !== undefined) this.settle(id);
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.input.off('data', this.onData);
    this.input.off('end', this.onEnd);
    this.input.off('close', this.onEnd);
    this.input.pause();
    this.parts = [];
    this.onclose?.();
    this.resolveDone();
  }
}
