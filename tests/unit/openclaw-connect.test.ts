/**
 * `cairn connect openclaw` and the `openclaw.*` channels on real temp OpenClaw dirs (no
 * OpenClaw needed: openclaw-connect-real.test.ts runs the real one): the dry run prints the
 * exact change (Cairn's plugin, nothing of OpenClaw's denied) and writes nothing; connecting
 * keeps the file's comments, saves a backup in Cairn's data dir and nothing in OpenClaw's;
 * consent is asked for; undo restores the file byte for byte, and keeps an edit made since
 * (openclaw-connect-undo.test.ts has more); a dir connected the old way is migrated; doctor reports the connection.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import JSON5 from 'json5';
import { describe, expect, it } from 'vitest';
import { createEngine } from '../../electron/engine/engine';
import { recordConnect, saveBackup } from '../../electron/engine/openclaw/backup';
import { connectOpenClaw, openClawConnection } from '../../electron/engine/openclaw/connect';
import { createDirectClient } from '../../electron/engine/rpc/direct';
import { CAIRN_BIN, runCairn } from '../helpers/cli';
import { OC2026_STATE_DIR, treeOf } from '../helpers/openclaw-state';
import { tmpDir } from '../helpers/tmp';

/** The environment's API keys blanked, so the exact diff does not depend on the machine. */
const NO_KEYS = { OPENAI_API_KEY: '', GEMINI_API_KEY: '', GOOGLE_API_KEY: '', VOYAGE_API_KEY: '', ANTHROPIC_API_KEY: '' };

const PLUGIN_DIR = path.join(path.dirname(path.dirname(CAIRN_BIN)), 'openclaw-plugin');
const launch = { node: process.execPath, bin: CAIRN_BIN, pluginDir: PLUGIN_DIR, env: {} };

/** openclaw.json as the old connect (deny list + MCP server) left it, from `text`. */
function oldStyle(text: string, stateDir: string, dataDir: string): string {
  const cfg = JSON5.parse(text) as Record<string, unknown>;
  cfg.mcp = { servers: { cairn: { command: process.execPath, args: [CAIRN_BIN, 'mcp', '--state-dir', stateDir], env: { CAIRN_DATA_DIR: dataDir } } } };
  cfg.tools = { deny: ['memory_search', 'memory_get'], toolSearch: false };
  return `${JSON.stringify(cfg, null, 2)}\n`;
}

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
  it("keeps every comment, adds Cairn's plugin without denying anything, and undo restores the bytes", async () => {
    const oc = ocDir(COMMENTED);
    const env = { CAIRN_DATA_DIR: oc.dataDir, OPENAI_API_KEY: 'sk-secret-value' };
    const deps = { env, launch };
    expect(openClawConnection(oc.stateDir)).toMatchObject({ connected: false, canConnect: true });

    const dry = await connectOpenClaw(oc.stateDir, { dryRun: true }, deps);
    expect(fs.readFileSync(oc.file, 'utf8')).toBe(COMMENTED);
    expect(dry.changed).toBe(false);

    const res = await connectOpenClaw(oc.stateDir, {}, deps);
    expect(res.changed).toBe(true);
    expect(res.diff).toBe(dry.diff);
    const text = fs.readFileSync(oc.file, 'utf8');
    for (const c of ['// OpenClaw config, hand-edited', '/* the model */', '// keep me', '// no browser']) expect(text).toContain(c);
    const cfg = JSON5.parse(text) as { tools: Record<string, unknown>; mcp?: unknown; plugins: { load: { paths: string[] }; entries: { cairn: unknown }; allow?: unknown } };
    // Nothing of OpenClaw's is switched off: the user's own deny list is as it was.
    expect(cfg.tools).toEqual({ deny: ['browser'] });
    expect(cfg.mcp).toBeUndefined();
    expect(cfg.plugins.allow).toBeUndefined();
    expect(cfg.plugins.load.paths).toEqual([PLUGIN_DIR]);
    expect(cfg.plugins.entries.cairn).toEqual({
      enabled: true,
      hooks: { allowConversationAccess: true },
      config: {
        stateDir: oc.stateDir,
        dataDir: oc.dataDir,
        node: process.execPath,
        bin: CAIRN_BIN,
        // The key goes by reference to OpenClaw's own environment, never by value.
        env: { OPENAI_API_KEY: '${OPENAI_API_KEY}' },
        recallBudgetMs: 300,
        startupBudgetMs: 2000,
        recallTokens: 600,
        minScore: 0.1,
        maxHits: 6,
      },
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

  it("undo after an edit made since connecting keeps that edit, takes Cairn's settings out and keeps the copy", async () => {
    const oc = ocDir(COMMENTED);
    const deps = { env: { CAIRN_DATA_DIR: oc.dataDir }, launch };
    const res = await connectOpenClaw(oc.stateDir, {}, deps);
    fs.appendFileSync(oc.file, '// edited later\n');
    const undone = await connectOpenClaw(oc.stateDir, { undo: true }, deps);
    expect(undone.message).toContain('was not replaced by the copy');
    expect(fs.readFileSync(oc.file, 'utf8')).toBe(`${COMMENTED}// edited later\n`);
    expect(fs.readFileSync(res.backupPath as string, 'utf8')).toBe(COMMENTED);
  });

  it('a file that is not JSON5 is named in the error and left as it was', async () => {
    const oc = ocDir('{ tools: [ }');
    const deps = { env: { CAIRN_DATA_DIR: oc.dataDir }, launch };
    await expect(connectOpenClaw(oc.stateDir, {}, deps)).rejects.toThrow(`${oc.file} is not valid JSON5`);
    expect(fs.readFileSync(oc.file, 'utf8')).toBe('{ tools: [ }');
    expect(openClawConnection(oc.stateDir)).toMatchObject({ connected: false, canConnect: false });
  });
});

describe('a dir connected the old way (MCP server, memory tools denied, tool search off)', () => {
  it('is migrated from the backup the old connect kept: the deny list goes, and undo gives back the original', async () => {
    const oc = ocDir(COMMENTED);
    const env = { CAIRN_DATA_DIR: oc.dataDir };
    // What the old connect did: back the file up in Cairn's data dir, then write its set-up.
    const old = oldStyle(COMMENTED, oc.stateDir, oc.dataDir);
    saveBackup(oc.stateDir, env, COMMENTED);
    fs.writeFileSync(oc.file, old);
    recordConnect(oc.stateDir, env, oc.file, old, new Date());
    expect(openClawConnection(oc.stateDir)).toMatchObject({ connected: false, detail: expect.stringContaining('connected the old way') });

    const dry = await connectOpenClaw(oc.stateDir, { dryRun: true }, { env, launch });
    expect(dry.diff).toContain('-      "memory_search",');
    expect(dry.diff).toContain('-    "toolSearch": false');
    expect(dry.diff).toContain('-  "mcp": {');
    const res = await connectOpenClaw(oc.stateDir, {}, { env, launch });
    expect(res.diff).toBe(dry.diff);
    const text = fs.readFileSync(oc.file, 'utf8');
    // The user's own file again (comments and all), with the plugin added.
    for (const c of ['// OpenClaw config, hand-edited', '// keep me', '// no browser']) expect(text).toContain(c);
    const cfg = JSON5.parse(text) as { tools: unknown; mcp?: unknown; plugins: { entries: { cairn: { enabled: boolean } } } };
    expect(cfg.tools).toEqual({ deny: ['browser'] });
    expect(cfg.mcp).toBeUndefined();
    expect(cfg.plugins.entries.cairn.enabled).toBe(true);
    expect(openClawConnection(oc.stateDir)).toMatchObject({ connected: true });
    await connectOpenClaw(oc.stateDir, { undo: true }, { env, launch });
    expect(fs.readFileSync(oc.file, 'utf8')).toBe(COMMENTED);
  });

  it("without that backup, takes the old set-up away key by key and keeps the user's own denials", async () => {
    const base = '{\n  "tools": {\n    "deny": ["exec", "memory_search", "memory_get"],\n    "toolSearch": false\n  },\n  "mcp": {\n    "servers": {\n      "other": { "command": "/bin/true" },\n      "cairn": { "command": "/usr/bin/node", "args": ["/opt/cairn/bin/cairn.mjs", "mcp"] }\n    }\n  }\n}\n';
    const oc = ocDir(base);
    const res = await connectOpenClaw(oc.stateDir, {}, { env: { CAIRN_DATA_DIR: oc.dataDir }, launch });
    expect(res.changed).toBe(true);
    const cfg = JSON5.parse(fs.readFileSync(oc.file, 'utf8')) as { tools: unknown; mcp: unknown };
    expect(cfg.tools).toEqual({ deny: ['exec'] });
    expect(cfg.mcp).toEqual({ servers: { other: { command: '/bin/true' } } });
    expect(openClawConnection(oc.stateDir)).toMatchObject({ connected: true });
    await connectOpenClaw(oc.stateDir, { undo: true }, { env: { CAIRN_DATA_DIR: oc.dataDir }, launch });
    expect(fs.readFileSync(oc.file, 'utf8')).toBe(base);
  });

  it('names the plugin in a plugins.allow list the user keeps, and creates none', async () => {
    const oc = ocDir('{ plugins: { allow: ["telegram"] } }\n');
    await connectOpenClaw(oc.stateDir, {}, { env: { CAIRN_DATA_DIR: oc.dataDir }, launch });
    expect((JSON5.parse(fs.readFileSync(oc.file, 'utf8')) as { plugins: { allow: string[] } }).plugins.allow).toEqual(['telegram', 'cairn']);
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
      expect(dry).toMatchObject({ changed: false, diff: expect.stringContaining('"allowConversationAccess": true') });
      expect(fs.readFileSync(oc.file, 'utf8')).toBe(COMMENTED);
      // A write without the hash of the diff shown is refused by the channel itself.
      await expect(api['openclaw.connect']({ stateDir: oc.stateDir })).rejects.toMatchObject({ code: 'bad_request' });
      const done = await api['openclaw.connect']({ stateDir: oc.stateDir, expectDiffSha256: dry.diffSha256 });
      expect(done).toMatchObject({ changed: true, diff: dry.diff, backupPath: expect.stringContaining(oc.dataDir) });
      expect(await api['openclaw.connection']({ stateDir: oc.stateDir })).toMatchObject({ connected: true });
      const undoDry = await api['openclaw.connect']({ stateDir: oc.stateDir, undo: true, dryRun: true });
      expect(await api['openclaw.connect']({ stateDir: oc.stateDir, undo: true, expectDiffSha256: undoDry.diffSha256 })).toMatchObject({ changed: true });
      expect(fs.readFileSync(oc.file, 'utf8')).toBe(COMMENTED);
      await expect(api['openclaw.connect']({ stateDir: path.join(oc.stateDir, 'nope'), dryRun: true })).rejects.toMatchObject({ code: 'not_found' });
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
          '+  "plugins": {',
          '+    "load": {',
          '+      "paths": [',
          `+        ${JSON.stringify(PLUGIN_DIR)}`,
          '+      ]',
          '+    },',
          '+    "entries": {',
          '+      "cairn": {',
          '+        "enabled": true,',
          '+        "hooks": {',
          '+          "allowConversationAccess": true',
          '+        },',
          '+        "config": {',
          `+          "stateDir": ${JSON.stringify(stateDir)},`,
          `+          "dataDir": ${JSON.stringify(dataDir)},`,
          `+          "node": ${JSON.stringify(process.execPath)},`,
          `+          "bin": ${JSON.stringify(CAIRN_BIN)},`,
          '+          "recallBudgetMs": 300,',
          '+          "startupBudgetMs": 2000,',
          '+          "recallTokens": 600,',
          '+          "minScore": 0.1,',
          '+          "maxHits": 6',
          '+        }',
          '+      }',
          '+    }',
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
    expect(r.stdout).toContain('+          "allowConversationAccess": true');
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
    expect(await status()).toMatchObject({ status: 'warn', detail: expect.stringContaining("Cairn's plugin is not in plugins.load.paths"), hint: expect.stringContaining('cairn connect openclaw') });
    // (doctor's "ok" once connected: openclaw-connect-real.test.ts)
    expect((await runCairn(['connect', 'openclaw', '--state-dir', oc.stateDir, '--yes'], { env })).code).toBe(0);
    expect(openClawConnection(oc.stateDir)).toMatchObject({ connected: true });
    expect((await runCairn(['connect', 'openclaw', '--state-dir', oc.stateDir, '--undo', '--yes'], { env })).code).toBe(0);
    expect(openClawConnection(oc.stateDir)).toMatchObject({ connected: false });
    expect(fs.readFileSync(oc.file, 'utf8')).toBe(fs.readFileSync(path.join(OC2026_STATE_DIR, 'openclaw.json'), 'utf8'));
  });
});
