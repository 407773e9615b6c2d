/**
 * The `cairn` command line: a thin wrapper over the engine. Each command lives in
 * `commands/<name>.ts` and exports `register(program, runtime)`.
 * Exit codes: 0 ok, 1 runtime error, 2 usage error.
 */
import { Command, CommanderError } from 'commander';
import pkg from '../../package.json' with { type: 'json' };
import { createRuntime, exitCodeFor, type CliRuntime } from './runtime';
import { commands } from './commands';

export function buildProgram(rt: CliRuntime): Command {
  const program = new Command('cairn')
    .description("Cairn: an offline workbench for a personal AI assistant's context and memory")
    .version(pkg.version, '-V, --version')
    .option('--state-dir <dir>', 'state directory (default: $CAIRN_STATE_DIR or ~/.cairn)')
    .option('--init', 'create the state dir if it does not exist (without it, a missing --state-dir is an error)')
    .showHelpAfterError()
    .exitOverride();
  // Global, whatever the command: read once before any command opens the engine.
  program.hook('preAction', () => {
    rt.init = program.opts<{ init?: boolean }>().init === true;
  });
  for (const register of commands) register(program, rt);
  return program;
}

/** Run the CLI with `argv` (without node and script); resolves to the exit code. */
export async function runCli(argv: string[], rt: CliRuntime = createRuntime()): Promise<number> {
  const program = buildProgram(rt);
  program.configureOutput({
    writeOut: (s) => rt.stdout(s.replace(/\n$/, '')),
    writeErr: (s) => rt.stderr(s.replace(/\n$/, '')),
  });
  try {
    await program.parseAsync(argv, { from: 'user' });
    return typeof process.exitCode === 'number' ? process.exitCode : 0;
  } catch (err) {
    if (err instanceof CommanderError) {
      if (err.code === 'commander.helpDisplayed' || err.code === 'commander.version' || err.code === 'commander.help') return 0;
      return 2;
    }
    return exitCodeFor(rt, err);
  } finally {
    await rt.dispose();
  }
}
