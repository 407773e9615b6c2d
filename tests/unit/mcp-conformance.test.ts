/**
 * The official MCP conformance suite's server scenarios against the real `cairn mcp --http`
 * on a state dir made with `--init`: the 2025-11-25 line of the stable release and the
 * 2026-07-28 line of the next one. Every scenario passes or is listed with its reason in
 * tests/conformance/expected-failures-<revision>.yml (reviewed in docs/mcp.md); the runner
 * itself fails on a new failure and on an entry that passes now (a stale baseline).
 * About 10 s per line on a 2-core machine (most of it the two processes starting).
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { conformance } from '../helpers/conformance';
import { startMcpHttp, type McpHttpChild } from '../helpers/mcp-http';
import { tmpDir } from '../helpers/tmp';

const suite = conformance();
const EXPECTED = path.resolve(__dirname, '..', 'conformance');

function runner(entry: string, args: string[]): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(suite.node ?? process.execPath, [entry, 'server', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (out += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (out += c));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, out }));
  });
}

describe.skipIf(!suite.runners)(`MCP conformance suite against cairn mcp --http${suite.skip}`, () => {
  let server: McpHttpChild;
  beforeAll(async () => {
    const dir = path.join(tmpDir('cairn-conformance-'), 'state');
    server = await startMcpHttp(dir, ['--init']);
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
  });

  const lines = [
    { line: 'stable', revision: '2025-11-25', args: ['--spec-version', '2025-11-25'] },
    { line: 'next', revision: '2026-07-28', args: ['--requirements', '2026-07-28'] },
  ] as const;
  for (const { line, revision, args } of lines) {
    it(`passes every ${revision} scenario not in expected-failures-${revision}.yml (conformance ${suite.runners?.[line].version ?? '?'})`, async () => {
      const runners = suite.runners;
      if (!runners) return;
      const expected = path.join(EXPECTED, `expected-failures-${revision}.yml`);
      expect(fs.existsSync(expected)).toBe(true);
      const out = tmpDir('cairn-conformance-out-');
      const r = await runner(runners[line].entry, ['--url', server.url.href, ...args, '--expected-failures', expected, '-o', out]);
      // The summary (and, on failure, which scenario regressed or went stale) is in the output.
      expect(r.code, r.out.slice(-6000)).toBe(0);
      expect(r.out).toMatch(/SUMMARY/);
    }, 300_000);
  }
});
