/** `cairn llm status|test|download`: output, JSON and exit codes. */
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../../electron/cli/main';
import { createRuntime } from '../../electron/cli/runtime';
import { data, startFixture } from '../helpers/llm-fixture';
import { tmpDir, writeTree } from '../helpers/tmp';

afterEach(() => {
  process.exitCode = undefined;
});

async function cli(args: string[]) {
  let stdout = '';
  let stderr = '';
  const rt = createRuntime({ stdout: (s) => (stdout += s), stderr: (s) => (stderr += s), isTTY: false, deps: { env: {} } });
  const code = await runCli(args, rt);
  process.exitCode = undefined;
  return { code, stdout, stderr };
}

describe('cairn llm', () => {
  it('status says what is missing and exits 1 when no model is configured', async () => {
    const dir = tmpDir();
    const r = await cli(['llm', 'status', '--state-dir', dir]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('provider: none\nconfigured: no\nproblem: no chat model configured');
    const j = await cli(['llm', 'status', '--state-dir', dir, '--json']);
    expect(JSON.parse(j.stdout)).toMatchObject({ provider: 'none', configured: false });
  });

  it('test sends one request to the configured server and prints the reply; a refused key exits 1', async () => {
    const fx = await startFixture([
      { sse: [data({ choices: [{ index: 0, delta: { content: 'pong' }, finish_reason: 'stop' }] }), data('[DONE]')] },
      { status: 401, json: { error: { message: 'invalid key' } } },
    ]);
    const dir = writeTree(tmpDir(), { 'cairn.json': JSON.stringify({ cairn: { llm: { provider: 'openai', baseUrl: fx.url, model: 'm', contextWindow: 2048, apiKey: 'k' } } }) });
    const ok = await cli(['llm', 'test', '--state-dir', dir]);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toMatch(/^ok \(\d+ ms\): pong\n$/);
    const bad = await cli(['llm', 'test', '--state-dir', dir, '--json']);
    expect(bad.code).toBe(1);
    expect(JSON.parse(bad.stdout)).toMatchObject({ ok: false, errorKind: 'AuthError', message: expect.stringContaining('cairn.llm.apiKey') });
  });

  it('download refuses without cairn.llm.modelUri', async () => {
    const r = await cli(['llm', 'download', '--state-dir', tmpDir()]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/modelUri is not set/);
  });
});
