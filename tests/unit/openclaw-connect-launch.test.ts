/**
 * Issue 38 defect 6, how connect tells OpenClaw to start Cairn from the packaged app, on the
 * path layout electron-builder produces (built in temp dirs: `resources/app.asar` as a file,
 * `resources/app.asar.unpacked/openclaw-plugin/`; a deb under /opt, an AppImage mounted under
 * `/tmp/.mount_*`). The `runAsNode` fuse is off there, so no `ELECTRON_RUN_AS_NODE`: the app's
 * binary is started with the plugin folder and serves the bridge (electron/main/bridge-mode.ts)
 * — run here through a stand-in binary and the plugin's own bridge client. The AppImage's
 * mount vanishes when it quits: the AppImage file and a copy of the plugin are recorded.
 */
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import JSON5 from 'json5';
import { describe, expect, it } from 'vitest';
import { connectOpenClaw, openClawConnection } from '../../electron/engine/openclaw/connect';
import { launchFor } from '../../electron/engine/openclaw/launch';
import { CAIRN_BIN } from '../helpers/cli';
import { tmpDir } from '../helpers/tmp';

const REPO = path.dirname(path.dirname(CAIRN_BIN));

/** The plugin's own bridge client (plain JS, loaded as OpenClaw loads it). */
interface Bridge {
  request(op: string, args: Record<string, unknown>, budgets: { budgetMs: number; startupBudgetMs: number }): Promise<unknown>;
  dispose(): void;
}
const bridgeClient = async () => (await import(pathToFileURL(path.join(REPO, 'openclaw-plugin', 'bridge-client.js')).href)) as { CairnBridge: new (o: Record<string, unknown>) => Bridge };

/** An installed app as electron-builder lays it out under `root` (its binary: a stand-in script). */
function packagedApp(root: string): { exe: string; asar: string; moduleDir: string } {
  const resources = path.join(root, 'resources');
  fs.mkdirSync(path.join(resources, 'app.asar.unpacked'), { recursive: true });
  const asar = path.join(resources, 'app.asar');
  fs.writeFileSync(asar, 'asar archive');
  fs.cpSync(path.join(REPO, 'openclaw-plugin'), path.join(resources, 'app.asar.unpacked', 'openclaw-plugin'), { recursive: true });
  const exe = path.join(root, 'cairn');
  const tsx = path.join(REPO, 'node_modules', 'tsx', 'dist', 'esm', 'index.mjs');
  fs.writeFileSync(exe, `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} --import ${JSON.stringify(tsx)} ${JSON.stringify(path.join(REPO, 'tests', 'helpers', 'packaged-app-child.ts'))} "$@"\n`, { mode: 0o755 });
  return { exe, asar, moduleDir: path.join(asar, 'dist', 'electron') };
}

function ocDir(): { stateDir: string; file: string } {
  const stateDir = path.join(tmpDir('cairn-oclaunch-'), '.openclaw');
  fs.mkdirSync(stateDir);
  const file = path.join(stateDir, 'openclaw.json');
  fs.writeFileSync(file, '{\n  "agents": {}\n}\n');
  return { stateDir, file };
}

/** The plugin's config as connect wrote it. */
const entryOf = (file: string) => (JSON5.parse(fs.readFileSync(file, 'utf8')) as { plugins: { load: { paths: string[] }; entries: { cairn: { config: { node: string; bin: string; env?: Record<string, string> } } } } }).plugins;

describe('connect from the packaged app (fuse runAsNode off)', () => {
  it('a deb/dir install: the app binary with the unpacked plugin folder, no ELECTRON_RUN_AS_NODE, and that launch serves the bridge', { timeout: 60_000 }, async () => {
    const app = packagedApp(path.join(tmpDir('cairn-opt-'), 'opt', 'Cairn'));
    const dataDir = tmpDir('cairn-data-');
    const launch = launchFor({ execPath: app.exe, electron: true, moduleDir: app.moduleDir, env: { CAIRN_DATA_DIR: dataDir } });
    const unpacked = path.join(path.dirname(app.asar), 'app.asar.unpacked', 'openclaw-plugin');
    expect(launch).toEqual({ node: app.exe, bin: unpacked, pluginDir: unpacked, env: {} });

    const oc = ocDir();
    await connectOpenClaw(oc.stateDir, {}, { env: { CAIRN_DATA_DIR: dataDir }, launch });
    const plugins = entryOf(oc.file);
    expect(plugins.load.paths).toEqual([unpacked]);
    expect(plugins.entries.cairn.config).toMatchObject({ node: app.exe, bin: unpacked });
    expect(plugins.entries.cairn.config.env?.ELECTRON_RUN_AS_NODE).toBeUndefined();
    expect(openClawConnection(oc.stateDir)).toMatchObject({ connected: true });

    // What the plugin does with that config: start `node bin --state-dir <dir> openclaw-bridge`.
    const cfg = plugins.entries.cairn.config;
    const { CairnBridge } = await bridgeClient();
    const bridge = new CairnBridge({ node: cfg.node, bin: cfg.bin, stateDir: oc.stateDir, dataDir });
    try {
      const hello = (await bridge.request('hello', {}, { budgetMs: 30_000, startupBudgetMs: 30_000 })) as Record<string, unknown>;
      // Cairn answered from the stand-in binary's own process, for this OpenClaw dir.
      expect(hello).toMatchObject({ stateDir: oc.stateDir, version: expect.any(String) });
      expect(hello.pid).not.toBe(process.pid);
    } finally {
      bridge.dispose();
    }
  });

  it('an AppImage: the AppImage file (not its /tmp/.mount_* folder) and a copy of the plugin in Cairn’s data dir, made only when connecting', async () => {
    const mount = path.join(tmpDir('cairn-tmp-'), '.mount_CairnQx12');
    const app = packagedApp(mount);
    const appImage = path.join(tmpDir('cairn-apps-'), 'Cairn-0.1.0.AppImage');
    fs.writeFileSync(appImage, '', { mode: 0o755 });
    const dataDir = tmpDir('cairn-data-');
    const env = { CAIRN_DATA_DIR: dataDir, APPIMAGE: appImage };
    const launch = launchFor({ execPath: path.join(mount, 'cairn'), electron: true, moduleDir: app.moduleDir, env });
    const stable = path.join(dataDir, 'openclaw-plugin');
    expect(launch).toMatchObject({ node: appImage, bin: stable, pluginDir: stable, env: {} });

    const oc = ocDir();
    const dry = await connectOpenClaw(oc.stateDir, { dryRun: true }, { env, launch });
    expect(dry.diff).toContain(JSON.stringify(stable));
    expect(fs.existsSync(stable)).toBe(false);
    await connectOpenClaw(oc.stateDir, {}, { env, launch });
    expect(entryOf(oc.file).entries.cairn.config).toMatchObject({ node: appImage, bin: stable });
    expect(fs.readFileSync(path.join(stable, 'openclaw.plugin.json'), 'utf8')).toBe(fs.readFileSync(path.join(REPO, 'openclaw-plugin', 'openclaw.plugin.json'), 'utf8'));
    // The app quits: its mount goes. OpenClaw still finds the plugin and the binary to start.
    fs.rmSync(mount, { recursive: true });
    expect(openClawConnection(oc.stateDir)).toMatchObject({ connected: true });
    expect(JSON.stringify(entryOf(oc.file))).not.toContain('.mount_');

    // Without $APPIMAGE nothing stable is known: refused, naming the mount.
    const again = packagedApp(mount);
    expect(() => launchFor({ execPath: path.join(mount, 'cairn'), electron: true, moduleDir: again.moduleDir, env: { CAIRN_DATA_DIR: dataDir } })).toThrow(/\.mount_CairnQx12.*goes away when it quits/);
  });

  it('the app binary started any other way opens the window, not the bridge', async () => {
    const app = packagedApp(path.join(tmpDir('cairn-opt-'), 'Cairn'));
    const { spawnSync } = await import('node:child_process');
    const r = spawnSync(app.exe, [path.join(tmpDir(), 'not-a-plugin'), '--state-dir', tmpDir(), 'openclaw-bridge'], { encoding: 'utf8' });
    expect(r.status).toBe(3);
    expect(r.stderr).toContain('would open the window');
  });
});
