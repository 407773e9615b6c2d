/**
 * Piped CLI output arrives whole: the real executable is a child whose stdout is a pipe,
 * so a command that exits before stdout drains loses everything past the pipe buffer
 * (64–128 KiB). `cairn get` of a 1 MB note, `sessions show --json` of a big session, and
 * `cairn mcp` answering requests from a client that closed stdin right after sending them.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCairn } from '../helpers/cli';
import { makeSession } from '../helpers/sessions';
import { tmpDir, writeTree } from '../helpers/tmp';

const NO_MODEL = JSON.stringify({ agents: { defaults: { memorySearch: { provider: 'none' } } } });

function bigNote(bytes: number): string {
  let s = '# Long note\n\n';
  for (let i = 0; s.length < bytes; i++) s += `line ${i}: port ${1000 + (i % 9000)} on host-${i}.internal\n`;
  return s;
}

describe('piped CLI output', () => {
  it('`cairn get` of a 1 MB note arrives whole', async () => {
    const note = bigNote(1_048_576);
    const dir = writeTree(tmpDir(), { 'cairn.json': NO_MODEL, 'workspace/memory/long.md': note });
    const r = await runCairn(['get', 'memory/long.md', '--state-dir', dir]);
    expect(r.code).toBe(0);
    expect(r.stdout.length).toBeGreaterThanOrEqual(note.length);
    expect(r.stdout).toContain(note.trimEnd());
  }, 60_000);

  it('`sessions show --json` of a big session arrives whole and parses', async () => {
    const dir = writeTree(tmpDir(), { 'cairn.json': NO_MODEL });
    makeSession(200, { resultChars: 3000, dir: path.join(dir, 'agents', 'main', 'sessions'), id: 'big' });
    const r = await runCairn(['sessions', 'show', 'big', '--json', '--state-dir', dir]);
    expect(r.code).toBe(0);
    expect(r.stdout.length).toBeGreaterThan(512 * 1024);
    const j = JSON.parse(r.stdout) as { total: number; entries: unknown[] };
    expect(j.total).toBe(800);
    expect(j.entries).toHaveLength(800);
  }, 60_000);

  it('`cairn mcp` answers every request even when the client closes stdin right after sending them', async () => {
    const note = bigNote(200_000);
    const dir = writeTree(tmpDir(), { 'cairn.json': NO_MODEL, 'workspace/memory/long.md': note });
    const rpc = (id: number, method: string, params: unknown) => JSON.stringify({ jsonrpc: '2.0', id, method, params });
    const input = [
      rpc(0, 'initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'pipe', version: '0' } }),
      JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
      ...[1, 2, 3, 4, 5].map((id) => rpc(id, 'tools/call', { name: 'memory_get', arguments: { path: 'memory/long.md' } })),
    ].join('\n');
    const r = await runCairn(['mcp', '--state-dir', dir], { input: `${input}\n` });
    expect(r.code).toBe(0);
    const replies = r.stdout.trim().split('\n').map((l) => JSON.parse(l) as { id: number; result?: { content: { text: string }[] } });
    expect(replies.map((m) => m.id).sort()).toEqual([0, 1, 2, 3, 4, 5]);
    for (const m of replies.filter((x) => x.id > 0)) expect(m.result?.content[0]?.text).toBe(note);
  }, 60_000);
});
