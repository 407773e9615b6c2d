/**
 * The assistant's `read`/`edit` tools and the memory flush's `read`/`write` refuse a named pipe in
 * the workspace instead of blocking on it forever (the turn would never end and cancel
 * could not run). A real mkfifo; the tools run in a child process so that, if they did
 * block, this test fails by its timeout instead of freezing the runner.
 */
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { workspaceTools } from '../../electron/engine/chat/tools/workspace';
import type { Tool, ToolOutput } from '../../electron/engine/chat/tools/types';
import { tmpDir, writeTree } from '../helpers/tmp';

const ROOT = path.resolve(__dirname, '..', '..');

function runChild(workspace: string, rel: string): Promise<{ tool: string; isError: boolean; text: string }[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'tests', 'helpers', 'fifo-read-child.ts'), workspace, rel], { cwd: ROOT });
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (s: string) => (out += s));
    child.stderr.setEncoding('utf8').on('data', (s: string) => (err += s));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(out.trim().split('\n').map((l) => JSON.parse(l))) : reject(new Error(`child exited ${code}: ${err}`))));
    // If the tools blocked, the test's timeout fires; do not leave the child behind.
    setTimeout(() => child.kill('SIGKILL'), 25_000).unref();
  });
}

describe('file tools and FIFOs', () => {
  it('read, edit and the flush read/write refuse a named pipe, naming it', async () => {
    const workspace = writeTree(tmpDir(), { 'MEMORY.md': '# M\n' });
    fs.mkdirSync(path.join(workspace, 'memory'));
    execFileSync('mkfifo', [path.join(workspace, 'memory', 'pipe.md'), path.join(workspace, 'memory', '2025-03-02.md')]);
    const results = await runChild(workspace, 'memory/pipe.md');
    expect(results.map((r) => [r.tool, r.isError])).toEqual([
      ['read', true],
      ['edit', true],
      ['flush-read', true],
      ['flush-write', true],
    ]);
    for (const r of results) expect(r.text).toMatch(/not a regular file/);
  }, 30_000);

  it('read still pages a regular file', async () => {
    const workspace = writeTree(tmpDir(), { 'notes/a.md': 'one\ntwo\nthree\n' });
    const [read] = workspaceTools({ workspace, writable: () => true }) as [Tool];
    const r = (await read.run({ path: 'notes/a.md', offset: 2, limit: 1 })) as ToolOutput;
    expect(r).toMatchObject({ isError: false, content: [{ type: 'text', text: 'two' }] });
  });
});
