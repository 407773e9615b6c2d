/**
 * `cairn openclaw-bridge`: the long-lived Cairn process the Cairn plugin inside OpenClaw
 * (openclaw-plugin/) starts under the Node that installed Cairn, one per OpenClaw process.
 * JSON lines on stdin/stdout (engine/openclaw/bridge.ts has the protocol); nothing else is
 * written to stdout. Hidden from help: people do not run it, the plugin does. It ends when
 * its stdin closes (OpenClaw exited) — no orphan outlives the process that started it.
 */
import type { Command } from 'commander';
import type { CliRuntime, GlobalOptions } from '../runtime';

export function register(program: Command, rt: CliRuntime): void {
  program
    .command('openclaw-bridge', { hidden: true })
    .description("serve the Cairn plugin inside OpenClaw: recall, search, get and compaction records as JSON lines on stdio")
    .action(async () => {
      const o = program.opts<GlobalOptions>();
      const [{ serveBridge }, { readLines }, engine] = await Promise.all([import('../../engine/openclaw/bridge'), import('../../../openclaw-plugin/wire.js'), rt.engine(o)]);
      // Lines end at '\n' only (wire.js): a newer Node's readline also ends one at U+2028/U+2029.
      const pause = rt.deps.openclawBridgePause;
      await serveBridge(engine.ctx, readLines(process.stdin), (line) => process.stdout.write(line), { dispatcher: engine.dispatcher, ...(pause ? { pause } : {}) });
    });
}
