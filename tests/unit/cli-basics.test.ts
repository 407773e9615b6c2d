/** The `cairn` executable: help, version, doctor (text and JSON), exit codes. */
import { describe, expect, it } from 'vitest';
import pkg from '../../package.json' with { type: 'json' };
import { runCairn } from '../helpers/cli';
import { tmpDir, writeTree } from '../helpers/tmp';

describe('cairn CLI', () => {
  it('prints its version and help', async () => {
    const v = await runCairn(['--version']);
    expect(v.code).toBe(0);
    expect(v.stdout.trim()).toBe(pkg.version);
    const h = await runCairn(['--help']);
    expect(h.code).toBe(0);
    expect(h.stdout).toMatch(/doctor/);
    expect(h.stdout).toMatch(/serve/);
  });

  it('exits 2 on a usage error and says what was wrong', async () => {
    const r = await runCairn(['definitely-not-a-command']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/unknown command 'definitely-not-a-command'/);
    const p = await runCairn(['serve', '--port', 'abc', '--state-dir', tmpDir()]);
    expect(p.code).toBe(2);
    expect(p.stderr).toMatch(/--port/);
  });

  it('doctor --json is valid JSON with every check, ok on a fresh state dir', async () => {
    const dir = tmpDir();
    const r = await runCairn(['doctor', '--json', '--state-dir', dir]);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as { stateDir: string; checks: { id: string; status: string }[] };
    expect(out.stateDir).toBe(dir);
    const byId = Object.fromEntries(out.checks.map((c) => [c.id, c.status]));
    expect(byId).toMatchObject({ 'state-dir': 'ok', config: 'ok', sqlite: 'ok', 'sqlite-vec': 'ok' });
    expect(byId['node-llama-cpp']).toBeDefined();
  });

  it('doctor names a bad config key with a hint, and still runs', async () => {
    const dir = writeTree(tmpDir(), { 'cairn.json': '{ agents: { defaults: { compaction: { reserveTokensFloor: "lots" } } } }' });
    const r = await runCairn(['doctor', '--state-dir', dir]);
    expect(r.stdout).toMatch(/\[warn\] Config: .*agents\.defaults\.compaction\.reserveTokensFloor = "lots"/);
    expect(r.stdout).toMatch(/→ Fix the named keys/);
    expect(r.stdout).toMatch(/\[ok {2}\] better-sqlite3 \+ FTS5/);
  });

  it('reports a truncated cairn.json with line and column', async () => {
    const dir = writeTree(tmpDir(), { 'cairn.json': '{\n  "agents": {\n' });
    const r = await runCairn(['doctor', '--json', '--state-dir', dir]);
    const out = JSON.parse(r.stdout) as { checks: { id: string; status: string; detail: string }[] };
    const config = out.checks.find((c) => c.id === 'config');
    expect(config?.status).toBe('warn');
    expect(config?.detail).toMatch(/cairn\.json: line 3, column 1: invalid end of input/);
  });
});
