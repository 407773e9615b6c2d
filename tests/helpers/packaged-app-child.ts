/**
 * A stand-in for the packaged app's binary with the `runAsNode` fuse off (no Electron binary
 * here): like electron/main/main.ts, it serves the bridge when started as the plugin starts
 * Cairn (bridge-mode.ts), and otherwise says it would open the window (exit 3) — what the
 * real binary does with any other arguments. Started through a shell script that plays the
 * binary, so its argv[1] is this file: the binary's own argv is the rest.
 */
import { bridgeLaunchStateDir, runBridge } from '../../electron/main/bridge-mode';

const argv = [process.argv[0] ?? 'app', ...process.argv.slice(2)];
const stateDir = bridgeLaunchStateDir(argv);
if (!stateDir) {
  process.stderr.write(`would open the window (argv ${JSON.stringify(argv.slice(1))})\n`);
  process.exit(3);
}
void runBridge(stateDir, { headless: () => undefined, exit: (code) => process.exit(code) });
