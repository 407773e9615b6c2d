/** `cairn mcp`: the SDK's own client spawns the real executable and calls both tools. */
import { afterEach, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { memoryTools } from '../../electron/engine/chat/tools/memory';
import { CAIRN_BIN } from '../helpers/cli';
import { tmpDir, writeTree } from '../helpers/tmp';

const clients: Client[] = [];
afterEach(async () => {
  while (clients.length) await clients.pop()!.close();
});

async function connect(): Promise<Client> {
  const dir = writeTree(tmpDir('cairn-mcp-'), {
    // FTS-only keeps the spawned process free of model conversion/downloads.
    'cairn.json': JSON.stringify({ agents: { defaults: { memorySearch: { provider: 'none' } } } }),
    'workspace/MEMORY.md': '# Preferences\n\nPrefers dark mode.\nUses neovim.\n',
    'workspace/memory/2024-05-08.md': '# Deploy\n\nDeployed commit a1b2c3d.\n',
    'workspace/memory/2024-05-09.md': '# 会議\n\n東京で予算の会議がありました。\n',
  });
  const client = new Client({ name: 'cairn-test', version: '0.0.0' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [CAIRN_BIN, 'mcp', '--state-dir', dir], stderr: 'pipe' }));
  clients.push(client);
  return client;
}

type ToolResult = { isError?: boolean; content: { type: string; text: string }[]; structuredContent?: Record<string, unknown> };

describe('cairn mcp', () => {
  it('lists memory_search and memory_get with input schemas', async () => {
    const client = await connect();
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(['memory_get', 'memory_search']);
    const search = tools.find((t) => t.name === 'memory_search')!;
    expect(Object.keys(search.inputSchema.properties ?? {}).sort()).toEqual(['maxResults', 'minScore', 'query', 'source']);
    expect(search.inputSchema.required).toEqual(['query']);
  });

  it('shows the cleaned JSON Schemas and read-only, closed-world annotations', async () => {
    const client = await connect();
    const { tools } = await client.listTools();
    for (const t of tools) {
      const json = JSON.stringify(t.inputSchema);
      expect(json).not.toContain('$schema');
      expect(json).not.toContain('exclusiveMinimum');
      expect(json).not.toContain(String(Number.MAX_SAFE_INTEGER));
      expect(t.annotations).toMatchObject({ readOnlyHint: true, openWorldHint: false });
    }
    const props = tools.find((t) => t.name === 'memory_search')!.inputSchema.properties as Record<string, Record<string, unknown>>;
    expect(props.maxResults).toMatchObject({ type: 'integer', minimum: 1 });
  });

  it('describes both tools exactly as the chat loop does (names, descriptions, arguments)', async () => {
    const client = await connect();
    const { tools } = await client.listTools();
    const chat = memoryTools({ search: () => Promise.reject(new Error('unused')), get: () => ({ path: '', text: '' }) });
    for (const t of chat) {
      const mcp = tools.find((x) => x.name === t.spec.name)!;
      expect(mcp.description).toBe(t.spec.description);
      const props = (t.spec.parameters as { properties: Record<string, { description: string }> }).properties;
      const mcpProps = mcp.inputSchema.properties as Record<string, { description?: string }>;
      expect(Object.keys(mcpProps).sort()).toEqual(Object.keys(props).sort());
      for (const [name, p] of Object.entries(props)) expect(mcpProps[name]?.description).toBe(p.description);
    }
  });

  it('refuses a bad argument the same way on both paths (one schema): minScore 5 is an error naming it, not silently ignored', async () => {
    const client = await connect();
    const { tools } = await client.listTools();
    let searched = 0;
    const chat = memoryTools({
      search: () => {
        searched++;
        return Promise.resolve({ results: [], mode: 'fts-only', warnings: [] } as never);
      },
      get: () => ({ path: '', text: '' }),
    });
    const chatSearch = chat.find((t) => t.spec.name === 'memory_search')!;
    // The JSON Schema the chat model sees carries the same bounds as MCP's.
    const chatProps = (chatSearch.spec.parameters as { properties: Record<string, Record<string, unknown>> }).properties;
    const mcpProps = tools.find((t) => t.name === 'memory_search')!.inputSchema.properties as Record<string, Record<string, unknown>>;
    expect(chatProps.minScore).toMatchObject({ type: 'number', minimum: 0, maximum: 1 });
    expect(mcpProps.minScore).toMatchObject({ type: 'number', minimum: 0, maximum: 1 });

    const chatOut = await chatSearch.run({ query: 'deploy', minScore: 5 });
    expect(chatOut.isError).toBe(true);
    expect((chatOut.content[0] as { text: string }).text).toMatch(/argument "minScore": .*1/);
    expect(searched).toBe(0);
    const mcpOut = (await client.callTool({ name: 'memory_search', arguments: { query: 'deploy', minScore: 5 } })) as ToolResult;
    expect(mcpOut.isError).toBe(true);
    expect(mcpOut.content[0]!.text).toMatch(/minScore/);

    // What small local models write still works on the chat path: null = not given, "3" = 3.
    expect((await chatSearch.run({ query: 'deploy', maxResults: '3', minScore: null })).isError).toBe(false);
    expect(searched).toBe(1);
  });

  it('memory_search answers compact text, citation first; memory_get follows that citation; each text comes once', async () => {
    const client = await connect();
    const res = (await client.callTool({ name: 'memory_search', arguments: { query: 'a1b2c3d', maxResults: 3 } })) as ToolResult;
    expect(res.isError).toBeFalsy();
    // One text block, no structuredContent beside it (a client would show both).
    expect(res.structuredContent).toBeUndefined();
    expect(res.content).toHaveLength(1);
    const first = res.content[0]!.text.split('\n')[0]!;
    expect(first).toMatch(/^memory\/2024-05-08\.md#L3-L3 \(\d\.\d\d, memory\)$/); // the heading line is not cited (search/ranges.ts)
    expect(res.content[0]!.text).toContain('Deployed commit a1b2c3d.');
    const cjk = (await client.callTool({ name: 'memory_search', arguments: { query: '予算の会議' } })) as ToolResult;
    expect(cjk.content[0]!.text.split(' ')[0]).toMatch(/^memory\/2024-05-09\.md#L\d+-L\d+$/);

    const citation = first.split(' ')[0]!;
    const cited = (await client.callTool({ name: 'memory_get', arguments: { path: citation } })) as ToolResult;
    expect(cited.isError).toBeFalsy();
    expect(cited.content).toEqual([{ type: 'text', text: 'Deployed commit a1b2c3d.' }]);
    expect(cited.structuredContent).toBeUndefined();
    const got = (await client.callTool({ name: 'memory_get', arguments: { path: 'MEMORY.md', from: 3, lines: 2 } })) as ToolResult;
    expect(got.content).toEqual([{ type: 'text', text: 'Prefers dark mode.\nUses neovim.' }]);
    expect(((await client.callTool({ name: 'memory_get', arguments: { path: 'MEMORY.md#L4' } })) as ToolResult).content[0]!.text).toBe('Uses neovim.');
  });

  it('memory_get refuses paths outside the memory set as a tool error', async () => {
    const client = await connect();
    for (const [p, msg] of [
      ['../cairn.json', /"\.\." is not allowed/],
      ['/etc/passwd', /only Markdown/],
      ['/etc/motd.md', /absolute paths are not allowed/],
      ['memory/none.md', /no such memory file/],
    ] as const) {
      const r = (await client.callTool({ name: 'memory_get', arguments: { path: p } })) as ToolResult;
      expect(r.isError).toBe(true);
      expect(r.content[0]!.text).toMatch(msg);
    }
  });
});
