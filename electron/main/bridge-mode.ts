/**
 * The packaged app as Cairn's OpenClaw bridge. Connect from the app records the app's binary
 * as the plugin's `node` and Cairn's plugin folder as its `bin` (engine/openclaw/launch.ts),
 * so the plugin starts `<binary> <plugin folder> --state-dir <dir> openclaw-bridge`. Electron's
 * `runAsNode` fuse is off, so that starts this main process: it must serve the bridge on
 * stdio before anything of the window — no single-instance lock (it would hand the arguments
 * to a running window and quit), no window, no display (headless), nothing else on stdout —
 * and exit when OpenClaw closes its stdin, as `cairn openclaw-bridge` does.
 */
import { isCairnPluginDir } from '../engine/openclaw/plan';

/**
 * The state dir when `argv` is the plugin's bridge launch — `<binary> <folder holding Cairn's
 * plugin> --state-dir <dir> openclaw-bridge` — else undefined. Tested on the argv the plugin builds.
 */
export function bridgeLaunchStateDir(argv: readonly string[]): string | undefined {
  const [, bin, flag, stateDir, command, ...rest] = argv;
  if (!bin || flag !== '--state-dir' || !stateDir || command !== 'openclaw-bridge' || rest.length) return undefined;
  return isCairnPluginDir(bin) ? stateDir : undefined;
}

/** What the bridge needs from Electron (passed in: this file imports no electron, for its test). */
export interface BridgeApp {
  /** Before ready: no display, no GPU (`app.commandLine.appendSwitch`, `app.disableHardwareAcceleration`). */
  headless(): void;
  exit(code: number): void;
}

/** Serve the bridge for `stateDir` on stdio until stdin closes, then exit. */
export async function runBridge(stateDir: string, app: BridgeApp): Promise<void> {
  app.headless();
  const [{ createEngine }, { serveBridge }, { resolveStateDir }, { readLines }] = await Promise.all([
    import('../engine/engine'),
    import('../engine/openclaw/bridge'),
    import('../engine/config/state-dir'),
    import('../../openclaw-plugin/wire.js'),
  ]);
  const engine = createEngine({ stateDir: resolveStateDir({ flag: stateDir }) });
  let code = 0;
  try {
    // Lines end at '\n' only (wire.js), and each answer comes with its '\n'.
    await serveBridge(engine.ctx, readLines(process.stdin), (line) => process.stdout.write(line), { dispatcher: engine.dispatcher });
  } catch (err) {
    process.stderr.write(`cairn openclaw-bridge: ${(err as Error).message}\n`);
    code = 1;
  } finally {
    await engine.dispose().catch(() => undefined);
  }
  app.exit(code);
}
