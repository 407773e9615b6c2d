/**
 * How Cairn's plugin inside OpenClaw starts Cairn (`config.node` + `config.bin`; the plugin
 * runs `node bin --state-dir <dir> openclaw-bridge`), worked out from where this engine runs:
 *
 * - From a checkout or an npm install: the Node running Cairn now and `bin/cairn.mjs`.
 * - In the packaged app: the app's own binary, started with the plugin folder as `bin`, runs
 *   headless as the bridge (electron/main/bridge-mode.ts). Not Electron-as-Node: electron-builder.yml turns
 *   the `runAsNode` fuse off, so `ELECTRON_RUN_AS_NODE=1` would start the window instead. Not
 *   a system Node either: the app's better-sqlite3 is rebuilt for Electron's ABI and would not
 *   load under it. The binary's path must outlive the app: an AppImage runs from a
 *   `/tmp/.mount_*` folder that vanishes when it quits, so the AppImage file itself
 *   (`$APPIMAGE`) is recorded instead, and the plugin folder is copied to Cairn's data dir.
 * - Electron unpackaged (development): its binary with `ELECTRON_RUN_AS_NODE=1` (the fuse is
 *   only flipped in the packaged binary) and `bin/cairn.mjs`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { cairnDataDir } from '../config/data-dir';
import type { CairnLaunch } from './plan';

/** What decides the launch: this process and where the engine's module lies. */
export interface LaunchFacts {
  /** process.execPath. */
  execPath: string;
  /** process.versions.electron is set. */
  electron: boolean;
  /** The folder of the engine module (inside `…/resources/app.asar/…` when packaged). */
  moduleDir: string;
  env: NodeJS.ProcessEnv;
}

const ASAR = 'app.asar';

/** The first ancestor of `from` that holds `rel` on disk. */
function findUp(from: string, rel: string, what: string): string {
  for (let dir = from; ; ) {
    const p = path.join(dir, rel);
    if (fs.existsSync(p)) return p;
    const up = path.dirname(dir);
    if (up === dir) throw new Error(`${rel} was not found above the engine: cannot tell OpenClaw ${what}`);
    dir = up;
  }
}

/** `…/resources/app.asar` when `dir` is inside a packaged app's asar, else undefined. */
function asarOf(dir: string): string | undefined {
  const parts = dir.split(path.sep);
  const i = parts.indexOf(ASAR);
  return i > 0 ? parts.slice(0, i + 1).join(path.sep) : undefined;
}

/** Whether `p` lies in a folder an AppImage is mounted at while it runs (gone when it quits). */
const inAppImageMount = (p: string): boolean => p.split(path.sep).some((s) => s.startsWith('.mount_'));

/**
 * The launch for a packaged app whose asar is `asar` (see the file header). `bin` is the
 * plugin folder: the binary started with it runs the bridge (bridge-mode.ts). From an
 * AppImage, the folder is copied at connect time to Cairn's data dir (`copyPluginFrom`), as
 * its unpacked files vanish with the mount.
 */
function packagedLaunch(asar: string, facts: LaunchFacts): CairnLaunch {
  const appImage = facts.env.APPIMAGE;
  const node = appImage && path.isAbsolute(appImage) ? appImage : facts.execPath;
  if (inAppImageMount(node)) {
    throw new Error(`this app runs from ${path.dirname(facts.execPath)}, which goes away when it quits, and $APPIMAGE does not name the AppImage file: cannot tell OpenClaw how to start Cairn`);
  }
  const unpacked = path.join(`${asar}.unpacked`, 'openclaw-plugin');
  if (!fs.existsSync(path.join(unpacked, 'openclaw.plugin.json'))) throw new Error(`Cairn's plugin is not at ${unpacked}: the app's unpacked files are incomplete`);
  if (!inAppImageMount(unpacked)) return { node, bin: unpacked, pluginDir: unpacked, env: {} };
  const stable = path.join(cairnDataDir(facts.env), 'openclaw-plugin');
  return { node, bin: stable, pluginDir: stable, env: {}, copyPluginFrom: unpacked };
}

/** The launch for these facts (see the file header). */
export function launchFor(facts: LaunchFacts): CairnLaunch {
  const asar = facts.electron ? asarOf(facts.moduleDir) : undefined;
  if (asar) return packagedLaunch(asar, facts);
  const bin = findUp(facts.moduleDir, path.join('bin', 'cairn.mjs'), 'how to start Cairn');
  const pluginDir = path.dirname(findUp(facts.moduleDir, path.join('openclaw-plugin', 'openclaw.plugin.json'), "where Cairn's plugin is"));
  return { node: facts.execPath, bin, pluginDir, env: facts.electron ? { ELECTRON_RUN_AS_NODE: '1' } : {} };
}

/** The launch of this process. */
export function currentLaunch(): CairnLaunch {
  // The app's main bundle is CommonJS (import.meta is empty there): its __dirname is dist/electron in the asar.
  const moduleDir = typeof __dirname === 'string' ? __dirname : path.dirname(fileURLToPath(import.meta.url));
  return launchFor({ execPath: process.execPath, electron: Boolean(process.versions.electron), moduleDir, env: process.env });
}
