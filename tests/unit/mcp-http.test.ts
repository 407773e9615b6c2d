/**
 * `cairn mcp --http`: MCP over Streamable HTTP on 127.0.0.1, to a 2025-era client (the SDK's
 * own client, `initialize`) and to a 2026-07-28 one (`server/discover`, stateless requests),
 * behind `cairn serve`'s Host/Origin checks and the state dir's token — carried in the URL it
 * prints or as `Authorization: Bearer`. Also at `/mcp` of `cairn serve`.
 */
import http from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startMcpHttp, type McpHttpChild } from '../helpers/mcp-http';
import { tmpDir, writeTree } from '../helpers/tmp';
import { spawn } from 'node:child_process';
import { CAIRN_BIN } from '../helpers/cli';

const running: McpHttpChild[] = [];
const clients: Client[] = [];
afterEach(async () => {
  while (clients.length) await clients.pop()?.close();
  while (running.length) await running.pop()?.stop();
});

function stateDir(): string {
  return writeTree(tmpDir('cairn-mcp-http-'), {
    'cairn.json': JSON.stringify({ agents: { defaults: { memorySearch: { provider: 'none' } } } }),
    'workspace/memory/2026-11-30.md': '# Day\n\nSaw a kestrel over the ridge.\n',
  });
}

const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'cairn-test', version: '0' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

async function post(url: URL, body: unknown, headers: Record<string, string> = {}): Promise<{ status: number; json: Record<string, unknown> | undefined; text: string }> {
  const b = body as { method: string; params?: { name?: string } };
  // The 2026-07-28 HTTP binding repeats the method (and a tool's name) in headers.
  const mcpHeaders: Record<string, string> = { 'mcp-protocol-version': '2026-07-28', 'mcp-method': b.method, ...(b.params?.name ? { 'mcp-name': b.params.name } : {}) };
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...mcpHeaders, ...headers },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  const data = /^data: (.*)$/m.exec(text)?.[1] ?? text;
  let json: Record<string, unknown> | undefined;
  try {
    json = JSON.parse(data) as Record<string, unknown>;
  } catch {
    json = undefined;
  }
  return { status: res.status, json, text };
}

/** A raw request with a chosen Host header (fetch cannot set one). */
function rawStatus(url: URL, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port: url.port, path: url.pathname + url.search, method: 'POST', headers: { 'content-type': 'application/json', ...headers } }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end('{"jsonrpc":"2.0","id":1,"method":"ping"}');
  });
}

describe('cairn mcp --http', () => {
  it('serves a 2025-era client (the SDK client with only the printed URL) and a 2026-07-28 one', async () => {
    const server = await startMcpHttp(stateDir());
    running.push(server);
    expect(server.url.hostname).toBe('127.0.0.1');
    const client = new Client({ name: 'cairn-test', version: '0' });
    await client.connect(new StreamableHTTPClientTransport(server.url));
    clients.push(client);
    expect((await client.listTools()).tools.map((t) => t.name).sort()).toEqual(['memory_get', 'memory_search']);
    const found = (await client.callTool({ name: 'memory_search', arguments: { query: 'kestrel' } })) as { content: { text: string }[] };
    expect(found.content[0]?.text).toMatch(/^memory\/2026-11-30\.md#L3-L3 /);

    const discover = await post(server.url, { jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: META } });
    expect(discover.status).toBe(200);
    expect(discover.json).toMatchObject({ id: 1, result: { supportedVersions: expect.arrayContaining(['2026-07-28']) } });
    const got = await post(server.url, { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'memory_get', arguments: { path: 'memory/2026-11-30.md#L3' }, _meta: META } });
    expect(got.json).toMatchObject({ id: 2, result: { content: [{ type: 'text', text: 'Saw a kestrel over the ridge.' }] } });
  });

  it('takes the token as a Bearer header; refuses a missing or wrong token, a foreign Host or Origin', async () => {
    const server = await startMcpHttp(stateDir());
    running.push(server);
    const bare = new URL(server.url.pathname, server.url);
    const discover = { jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: META } };
    expect((await post(bare, discover, { authorization: `Bearer ${server.token}` })).status).toBe(200);
    expect((await post(bare, discover)).status).toBe(401);
    expect((await post(bare, discover, { authorization: 'Bearer wrong-token-wrong-token-wrong-token' })).status).toBe(401);
    expect(await rawStatus(server.url, { host: `evil.example:${server.url.port}` })).toBe(403);
    expect(await rawStatus(server.url, { host: `127.0.0.1:${server.url.port}`, origin: 'http://evil.example' })).toBe(403);
  });

  it('is served at /mcp of `cairn serve` too, with the token `cairn serve` prints', async () => {
    const dir = stateDir();
    const child = spawn(process.execPath, [CAIRN_BIN, 'serve', '--state-dir', dir], { stdio: ['ignore', 'pipe', 'pipe'] });
    const exited = new Promise((resolve) => child.once('close', resolve));
    try {
      const url = await new Promise<URL>((resolve, reject) => {
        let out = '';
        child.stdout.setEncoding('utf8').on('data', (c: string) => {
          out += c;
          const m = /^MCP: (\S+)$/m.exec(out);
          if (m?.[1]) resolve(new URL(m[1]));
        });
        child.once('close', () => reject(new Error(`cairn serve exited: ${out}`)));
      });
      expect(url.pathname).toBe('/mcp');
      const client = new Client({ name: 'cairn-test', version: '0' });
      await client.connect(new StreamableHTTPClientTransport(url));
      const res = (await client.callTool({ name: 'memory_get', arguments: { path: 'memory/2026-11-30.md#L3-L3' } })) as { content: { text: string }[] };
      expect(res.content[0]?.text).toBe('Saw a kestrel over the ridge.');
      await client.close();
    } finally {
      child.kill('SIGTERM');
      await exited;
    }
  });
});
