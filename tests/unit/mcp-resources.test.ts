/**
 * `cairn mcp` over real stdio with the SDK's client: `memory_get` opens the session citations
 * `memory_search` returns (a JSONL transcript and OpenClaw's SQLite store), the memory files
 * are resources (list, read, a change notification when a file is edited on disk), and
 * malformed `tools/call` params get -32602 with a readable message.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { CAIRN_BIN } from '../helpers/cli';
import { OC2026_LEGACY_DIR } from '../helpers/openclaw-2026';
import { copyOpenClawState } from '../helpers/openclaw-state';
import { tmpDir, writeTree } from '../helpers/tmp';

const clients: Client[] = [];
afterEach(async () => {
  while (clients.length) await clients.pop()?.close();
});

async function connect(stateDir: string): Promise<Client> {
  const client = new Client({ name: 'cairn-test', version: '0.0.0' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [CAIRN_BIN, 'mcp', '--state-dir', stateDir], stderr: 'pipe', env: { ...process.env } as Record<string, string> }));
  clients.push(client);
  return client;
}

type ToolResult = { isError?: boolean; content: { type: string; text: string }[] };
const textOf = (r: unknown) => (r as ToolResult).content[0]?.text ?? '';

describe('cairn mcp: session citations, resources, params errors', () => {
  it('memory_get opens the session citation memory_search returned (JSONL transcript)', async () => {
    const stateDir = writeTree(tmpDir('cairn-mcp-'), {
      'cairn.json': JSON.stringify({ agents: { defaults: { memorySearch: { provider: 'none', sources: ['memory', 'sessions'] } } } }),
      'workspace/MEMORY.md': '# Memory\n\n- nothing about otters\n',
    });
    fs.mkdirSync(path.join(stateDir, 'agents/main/sessions'), { recursive: true });
    fs.copyFileSync(path.join(OC2026_LEGACY_DIR, 'agents/main/sessions/s1-alpha.jsonl'), path.join(stateDir, 'agents/main/sessions/s1-alpha.jsonl'));
    const client = await connect(stateDir);
    const found = textOf(await client.callTool({ name: 'memory_search', arguments: { query: 'marmalade-otter', source: 'sessions' } }));
    const citation = found.split(' ')[0] ?? '';
    expect(citation).toMatch(/^sessions\/s1-alpha\.jsonl#L44-L44$/);
    const got = (await client.callTool({ name: 'memory_get', arguments: { path: citation } })) as ToolResult;
    expect(got.isError).toBeFalsy();
    expect(got.content[0]?.text).toMatch(/^L44 Summary: ## Goal .*marmalade-otter/m);
  });

  it("memory_get opens a session citation from OpenClaw's SQLite store", async () => {
    const { stateDir } = copyOpenClawState();
    const client = await connect(stateDir);
    const got = (await client.callTool({ name: 'memory_get', arguments: { path: 'sessions/s1-alpha.jsonl#L41-L44' } })) as ToolResult;
    expect(got.isError, got.content[0]?.text).toBeFalsy();
    expect(got.content[0]?.text).toMatch(/^L41 User: Retry: another listing please/);
    expect(got.content[0]?.text).toMatch(/^L44 Summary: ## Goal/m);
    const bad = (await client.callTool({ name: 'memory_get', arguments: { path: 'sessions/../cairn.json#L1' } })) as ToolResult;
    expect(bad.isError).toBe(true);
    expect(bad.content[0]?.text).toContain('not a session transcript');
  });

  it('lists and reads the memory files as resources, and tells the client when one is edited on disk', async () => {
    const stateDir = writeTree(tmpDir('cairn-mcp-'), {
      'cairn.json': JSON.stringify({ agents: { defaults: { memorySearch: { provider: 'none', sync: { watchDebounceMs: 50 } } } } }),
      'workspace/MEMORY.md': '# Memory\n\nPrefers tea.\n',
      'workspace/memory/2026-11-30.md': '# Day\n\nSaw a kestrel.\n',
    });
    const client = await connect(stateDir);
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri)).toEqual(['cairn-memory:///MEMORY.md', 'cairn-memory:///memory/2026-11-30.md']);
    expect(resources[0]).toMatchObject({ name: 'MEMORY.md', mimeType: 'text/markdown' });
    const read = await client.readResource({ uri: 'cairn-memory:///memory/2026-11-30.md' });
    expect(read.contents).toEqual([{ uri: 'cairn-memory:///memory/2026-11-30.md', mimeType: 'text/markdown', text: '# Day\n\nSaw a kestrel.\n' }]);
    await expect(client.readResource({ uri: 'cairn-memory:///cairn.json' })).rejects.toMatchObject({ code: -32602, message: expect.stringMatching(/only Markdown/) });
    await expect(client.readResource({ uri: 'cairn-memory:///memory/none.md' })).rejects.toMatchObject({ code: -32602, message: expect.stringMatching(/no such memory file/) });

    // A 2025-era client gets `resources/updated` for what it subscribed to.
    expect(client.getServerCapabilities()?.resources).toMatchObject({ subscribe: true, listChanged: true });
    await client.subscribeResource({ uri: 'cairn-memory:///memory/2026-11-30.md' });
    const updated = new Promise<string>((resolve) => client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => resolve(n.params.uri)));
    // Edit until the watcher (started with the server) reports it: it may not be ready yet,
    // and each edit must leave the debounce time to pass.
    let n = 0;
    const edit = () => {
      fs.writeFileSync(path.join(stateDir, 'workspace/memory/2026-11-30.md'), `# Day\n\nSaw a kestrel.\nEdit ${++n}.\n`);
      // Not subscribed: no `resources/updated` for it (the first one seen must be the note's).
      fs.writeFileSync(path.join(stateDir, 'workspace/MEMORY.md'), `# Memory\n\nPrefers tea ${n}.\n`);
    };
    edit();
    const again = setInterval(edit, 1000);
    try {
      expect(await updated).toBe('cairn-memory:///memory/2026-11-30.md');
    } finally {
      clearInterval(again);
    }
  });

  it('answers tools/call with `arguments: null` or a `__proto__` key for params with -32602 and a readable message', async () => {
    const stateDir = writeTree(tmpDir('cairn-mcp-'), { 'cairn.json': JSON.stringify({ agents: { defaults: { memorySearch: { provider: 'none' } } } }) });
    const client = await connect(stateDir);
    const send = (params: unknown) => client.request({ method: 'tools/call', params } as never, ResourceUpdatedNotificationSchema.shape.params as never);
    await expect(send({ name: 'memory_search', arguments: null })).rejects.toMatchObject({ code: -32602, message: expect.stringMatching(/params\.arguments: expected an object, received null$/) });
    await expect(send(JSON.parse('{"__proto__":{"name":"memory_search"}}'))).rejects.toMatchObject({ code: -32602, message: expect.stringMatching(/params\.name: expected string, received undefined$/) });
    // A __proto__ key inside the arguments is only an unknown argument.
    const r = (await client.callTool({ name: 'memory_search', arguments: JSON.parse('{"__proto__":{"query":"x"}}') })) as ToolResult;
    expect(r.isError).toBe(true);
    expect(r.content[0]?.text).toMatch(/argument "query": .*expected string/);
  });
});
