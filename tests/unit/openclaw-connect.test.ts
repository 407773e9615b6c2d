/**
 * `cairn connect openclaw` and the `openclaw.*` channels on real temp OpenClaw dirs (no
 * OpenClaw needed: openclaw-connect-real.test.ts runs the real one): the dry run prints the
 * exact change and writes nothing; connecting keeps the file's comments, saves a backup in
 * Cairn's data dir and nothing in OpenClaw's; consent is asked for; undo restores the file
 * byte for byte, and refuses when the file changed since; doctor reports the connection.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import JSON5 from 'json5';
import { describe, expect, it } from 'vitest';
import { createEngine } from '../../electron/engine/engine';
import { connectOpenClaw, openClawConnection } from '../../electron/engine/openclaw/connect';
import { createDirectClient } from '../../electron/engine/rpc/direct';
import { CAIRN_BIN, runCairn } from '../helpers/cli';
import { OC2026_STATE_DIR, treeOf } from '../helpers/openclaw-state';
import { tmpDir } from '../helpers/tmp';

/** The environment's API keys blanked, so the exact diff does not depend on the machine. */
const NO_KEYS = { OPENAI_API_KEY: '', GEMINI_API_KEY: '', GOOGLE_API_KEY: '', VOYAGE_API_KEY: '', ANTHROPIC_API_KEY: '' };

const launch = { node: process.execPath, bin: '/opt/cairn/bin/cairn.mjs', env: {} };

const COMMENTED = `// OpenClaw config, hand-edited
{
  /* the model */
  agents: { defaults: { model: { primary: 'fake/fake-1' } } }, // keep me
  tools: {
    deny: ['browser'], // no browser
  },
}
`;

function ocDir(text: string): { stateDir: string; file: string; dataDir: string } {
  const stateDir = path.join(tmpDir('cairn-occonnect-'), '.openclaw');
  fs.mkdirSync(stateDir);
  const file = path.join(stateDir, 'openclaw.json');
  fs.writeFileSync(file, text);
  return { stateDir, file, dataDir: tmpDir('cairn-data-') };
}

describe('connecting an OpenClaw dir to Cairn', () => {
  it('keeps every comment, adds the server, extends the deny list, and undo restores the bytes', async () => {
    const oc = ocDir(COMMENTED);
    const env = { CAIRN_DATA_DIR: oc.dataDir, OPENAI_API_KEY: 'sk-secret-value' };
    const deps = { env, launch, openclawCli: null };
    expect(openClawConnection(oc.stateDir)).toMatchObject({ connected: false, canConnect: true });

    const dry = await connectOpenClaw(oc.stateDir, { dryRun: true }, deps);
    expect(fs.readFileSync(oc.file, 'utf8')).toBe(COMMENTED);
    expect(dry.changed).toBe(false);

    const res = await connectOpenClaw(oc.stateDir, {}, deps);
    expect(res.changed).toBe(true);
    expect(res.diff).toBe(dry.diff);
    const text = fs.readFileSync(oc.file, 'utf8');
    for (const c of ['// OpenClaw config, hand-edited', '/* the model */', '// keep me', '// no browser']) expect(text).toContain(c);
    const cfg = JSON5.parse(text) as { tools: { deny: string[]; toolSearch: boolean }; mcp: { servers: { cairn: { command: string; args: string[]; env: Record<string, string> } } } };
    expect(cfg.tools.deny).toEqual(['browser', 'memory_search', 'memory_get']);
    expect(cfg.tools.toolSearch).toBe(false);
    expect(cfg.mcp.servers.cairn).toEqual({
      command: process.execPath,
      args: ['/opt/cairn/bin/cairn.mjs', 'mcp', '--state-dir', oc.stateDir],
      // The key goes by reference to OpenClaw's own environment, never by value.
      env: { CAIRN_DATA_DIR: oc.dataDir, OPENAI_API_KEY: '${OPENAI_API_KEY}' },
    });
    expect(text).not.toContain('sk-secret-value');
    // Nothing of Cairn's in OpenClaw's dir: the backup is in Cairn's data dir.
    expect(fs.readdirSync(oc.stateDir)).toEqual(['openclaw.json']);
    expect(res.backupPath?.startsWith(oc.dataDir)).toBe(true);
    expect(openClawConnection(oc.stateDir)).toMatchObject({ connected: true });
    expect(await connectOpenClaw(oc.stateDir, {}, deps)).toMatchObject({ changed: false, diff: '' });

    const undone = await connectOpenClaw(oc.stateDir, { undo: true }, deps);
    expect(undone.changed).toBe(true);
    expect(fs.readFileSync(oc.file, 'utf8')).toBe(COMMENTED);
    await expect(connectOpenClaw(oc.stateDir, { undo: true }, deps)).rejects.toMatchObject({ code: 'not_found' });
  });

  it('undo refuses to overwrite an edit made after connecting, and keeps the backup', async () => {
    const oc = ocDir(COMMENTED);
    const deps = { env: { CAIRN_DATA_DIR: oc.dataDir }, launch, openclawCli: null };
    const res = await connectOpenClaw(oc.stateDir, {}, deps);
    fs.appendFileSync(oc.file, '// edited later\n');
    const edited = fs.readFileSync(oc.file, 'utf8');
    await expect(connectOpenClaw(oc.stateDir, { undo: true }, deps)).rejects.toMatchObject({ code: 'conflict' });
    expect(fs.readFileSync(oc.file, 'utf8')).toBe(edited);
    expect(fs.readFileSync(res.backupPath as string, 'utf8')).toBe(COMMENTED);
  });

  it('a file that is not JSON5 is named in the error and left as it was', async () => {
    const oc = ocDir('{ tools: [ }');
    const deps = { env: { CAIRN_DATA_DIR: oc.dataDir }, launch, openclawCli: null };
    await expect(connectOpenClaw(oc.stateDir, {}, deps)).rejects.toThrow(`${oc.file} is not valid JSON5`);
    expect(fs.readFileSync(oc.file, 'utf8')).toBe('{ tools: [ }');
    expect(openClawConnection(oc.stateDir)).toMatchObject({ connected: false, canConnect: false });
  });
});

describe('the openclaw.* channels (what the app calls)', () => {
  it('report the connection, dry-run, connect and undo through the engine', async () => {
    const oc = ocDir(COMMENTED);
    const engine = createEngine({ stateDir: tmpDir(), deps: { env: { CAIRN_DATA_DIR: oc.dataDir } } });
    const api = createDirectClient(engine);
    try {
      expect(await api['openclaw.connection']({ stateDir: oc.stateDir })).toMatchObject({ stateDir: oc.stateDir, connected: false, canConnect: true });
      const dry = await api['openclaw.connect']({ stateDir: oc.stateDir, dryRun: true });
      expect(dry).toMatchObject({ changed: false, diff: expect.stringContaining('+    "toolSearch": false') });
      expect(fs.readFileSync(oc.file, 'utf8')).toBe(COMMENTED);
      // (Tests never reach a real openclaw CLI here: the engine's env has no PATH.)
      const done = await api['openclaw.connect']({ stateDir: oc.stateDir });
      expect(done).toMatchObject({ changed: true, diff: dry.diff, backupPath: expect.stringContaining(oc.dataDir) });
      expect(await api['openclaw.connection']({ stateDir: oc.stateDir })).toMatchObject({ connected: true });
      expect(await api['openclaw.connect']({ stateDir: oc.stateDir, undo: true })).toMatchObject({ changed: true });
      expect(fs.readFileSync(oc.file, 'utf8')).toBe(COMMENTED);
      await expect(api['openclaw.connect']({ stateDir: path.join(oc.stateDir, 'nope') })).rejects.toMatchObject({ code: 'not_found' });
    } finally {
      await engine.dispose();
    }
  });
});

describe('cairn connect openclaw (CLI)', () => {
  it('--dry-run on the OpenClaw 2026.9.6 fixture prints the exact change and writes nothing', async () => {
    // A read-only copy, as the shared fixture is: a dry run must not need to write.
    const stateDir = path.join(tmpDir('cairn-ocfix-'), '.openclaw');
    fs.cpSync(OC2026_STATE_DIR, stateDir, { recursive: true });
    const dataDir = tmpDir('cairn-data-');
    const before = treeOf(stateDir);
    const chmod = (mode: number) => {
      for (const p of [...before.keys()].map((k) => path.join(stateDir, k))) fs.chmodSync(p, p.endsWith('/') ? mode | 0o111 : mode);
      fs.chmodSync(stateDir, mode | 0o111);
    };
    chmod(0o444);
    try {
      const r = await runCairn(['connect', 'openclaw', '--state-dir', stateDir, '--dry-run'], { env: { CAIRN_DATA_DIR: dataDir, XDG_STATE_HOME: '', ...NO_KEYS } });
      expect(r.code).toBe(0);
      const file = path.join(stateDir, 'openclaw.json');
      const added = r.stdout.split('\n').filter((l) => l.startsWith('+') && !l.startsWith('+++'));
      expect(r.stdout.split('\n').slice(0, 2)).toEqual([`--- ${file}`, `+++ ${file}`]);
      expect(added.join('\n')).toBe(
        [
          '+  },',
          '+  "mcp": {',
          '+    "servers": {',
          '+      "cairn": {',
          `+        "command": ${JSON.stringify(process.execPath)},`,
          '+        "args": [',
          `+          ${JSON.stringify(CAIRN_BIN)},`,
          '+          "mcp",',
          '+          "--state-dir",',
          `+          ${JSON.stringify(stateDir)}`,
          '+        ],',
          '+        "env": {',
          `+          "CAIRN_DATA_DIR": ${JSON.stringify(dataDir)}`,
          '+        }',
          '+      }',
          '+    }',
          '+  },',
          '+  "tools": {',
          '+    "deny": [',
          '+      "memory_search",',
          '+      "memory_get"',
          '+    ],',
          '+    "toolSearch": false',
        ].join('\n'),
      );
      expect(treeOf(stateDir)).toEqual(before);
      expect(fs.readdirSync(dataDir)).toEqual([]);
    } finally {
      chmod(0o644);
    }
  });

  it('without a terminal and without --yes it shows the diff, refuses (exit 2) and writes nothing', async () => {
    const oc = ocDir(COMMENTED);
    const r = await runCairn(['connect', 'openclaw', '--state-dir', oc.stateDir], { env: { CAIRN_DATA_DIR: oc.dataDir } });
    expect(r.code).toBe(2);
    expect(r.stdout).toContain('+    "toolSearch": false');
    expect(r.stderr).toContain('--yes');
    expect(fs.readFileSync(oc.file, 'utf8')).toBe(COMMENTED);
  });

  it('on a terminal it asks y/N: no leaves the file, yes writes it', () => {
    const oc = ocDir(COMMENTED);
    // A real pseudo-terminal (util-linux `script`); the answer waits in its input buffer.
    const onTty = (answer: string) =>
      spawnSync('script', ['-qec', `${JSON.stringify(process.execPath)} ${JSON.stringify(CAIRN_BIN)} connect openclaw --state-dir ${JSON.stringify(oc.stateDir)}`, '/dev/null'], {
        input: `${answer}\n`,
        encoding: 'utf8',
        env: { ...process.env, CAIRN_DATA_DIR: oc.dataDir },
      });
    const no = onTty('n');
    expect(no.stdout).toContain('[y/N]');
    expect(no.status).toBe(1);
    expect(fs.readFileSync(oc.file, 'utf8')).toBe(COMMENTED);
    const yes = onTty('y');
    expect(yes.stdout).toContain('Connected');
    expect(yes.status).toBe(0);
    expect(openClawConnection(oc.stateDir)).toMatchObject({ connected: true });
  });

  it('doctor on an OpenClaw dir says it is not connected and how to connect; --undo puts it back', { timeout: 90_000 }, async () => {
    const oc = ocDir(fs.readFileSync(path.join(OC2026_STATE_DIR, 'openclaw.json'), 'utf8'));
    const env = { CAIRN_DATA_DIR: oc.dataDir, PATH: path.dirname(process.execPath) };
    const status = async () => {
      const r = await runCairn(['doctor', '--json', '--state-dir', oc.stateDir], { env });
      return (JSON.parse(r.stdout) as { checks: { id: string; status: string; detail: string; hint?: string }[] }).checks.find((c) => c.id === 'openclaw-connection');
    };
    expect(await status()).toMatchObject({ status: 'warn', detail: expect.stringContaining('no mcp.servers.cairn entry'), hint: expect.stringContaining('cairn connect openclaw') });
    // (doctor's "ok" once connected: openclaw-connect-real.test.ts)
    expect((await runCairn(['connect', 'openclaw', '--state-dir', oc.stateDir, '--yes'], { env })).code).toBe(0);
    expect(openClawConnection(oc.stateDir)).toMatchObject({ connected: true });
    expect((await runCairn(['connect', 'openclaw', '--state-dir', oc.stateDir, '--undo', '--yes'], { env })).code).toBe(0);
    expect(openClawConnection(oc.stateDir)).toMatchObject({ connected: false });
    expect(fs.readFileSync(oc.file, 'utf8')).toBe(fs.readFileSync(path.join(OC2026_STATE_DIR, 'openclaw.json'), 'utf8'));
  });
});
