// A `bin` for Cairn's OpenClaw plugin in tests: the real CLI (electron/cli/main.ts, run from its
// sources through tsx) with one test hook passed in — `openclawBridgePause`, where the bridge
// holds a request before its work. The test says where and how long in the child's environment
// (this script reads it; Cairn's own code never does): CAIRN_TEST_BRIDGE_PAUSE is JSON such as
// `{"recall": 600000}` or `{"warm-up": "forever"}` (ms, or "forever"). Run as
// `node openclaw-bridge-paused.mjs --state-dir <dir> openclaw-bridge`, as the plugin runs bin/cairn.mjs.
import { register } from 'tsx/esm/api';

register();
const spec = JSON.parse(process.env.CAIRN_TEST_BRIDGE_PAUSE || '{}');

/** Wait `spec[at]` ms (or until `signal` aborts); "forever" waits for the abort alone. */
function pause(at, signal) {
  const ms = spec[at];
  if (ms === undefined || signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = ms === 'forever' ? undefined : setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}

const [{ runCli }, { createRuntime }] = await Promise.all([import('../../electron/cli/main.ts'), import('../../electron/cli/runtime.ts')]);
const rt = createRuntime({ deps: { openclawBridgePause: pause } });
const code = await runCli(process.argv.slice(2), rt);
process.stdout.write('', () => process.exit(code));
