/**
 * `cairn connect openclaw`: load Cairn's plugin into an OpenClaw state dir (recall before
 * every prompt, Cairn's corpus behind OpenClaw's own memory tools; a dir connected the old
 * way is migrated) — the engine's connectOpenClaw, which the app's button calls too. It prints the change to
 * openclaw.json as a diff first and writes only with consent: y/N on a terminal, `--yes`
 * otherwise (without it a non-interactive run refuses, exit 2). What is written is exactly the
 * change shown: a file edited in between is refused (exit 1) with the new diff. `--undo` takes
 * the connection back.
 */
import type { Command } from 'commander';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import type { OpenClawConnectResult } from '../../../shared/contract/openclaw';
import { expandHome } from '../../engine/config/state-dir';
import type { CliRuntime, GlobalOptions } from '../runtime';

interface ConnectOptions extends GlobalOptions {
  dryRun?: boolean;
  undo?: boolean;
  yes?: boolean;
}

/** The OpenClaw dir: `--state-dir`, else $OPENCLAW_STATE_DIR, else ~/.openclaw (OpenClaw's own default). */
function openClawDir(flag: string | undefined): string {
  return path.resolve(expandHome(flag || process.env.OPENCLAW_STATE_DIR || path.join(os.homedir(), '.openclaw')));
}

/** Ask a yes/no question on the terminal; anything but y/yes is no. */
async function ask(question: string): Promise<boolean> {
  const rl = readline.createInterface({ input: process.stdin, output: process.stderr });
  try {
    const answer = await new Promise<string>((resolve) => rl.question(question, resolve));
    return /^y(es)?$/i.test(answer.trim());
  } finally {
    rl.close();
  }
}

function report(rt: CliRuntime, o: ConnectOptions, r: OpenClawConnectResult): void {
  if (o.json) rt.json(r);
  else {
    if (r.diff) rt.stdout(r.diff);
    rt.stderr(r.message);
  }
}

async function run(rt: CliRuntime, o: ConnectOptions): Promise<number> {
  const stateDir = openClawDir(o.stateDir);
  const { connectOpenClaw } = await import('../../engine/openclaw/connect');
  const deps = { env: process.env };
  const preview = await connectOpenClaw(stateDir, { dryRun: true, undo: o.undo }, deps);
  if (o.dryRun || !preview.diff) {
    report(rt, o, preview);
    return 0;
  }
  if (!o.yes) {
    if (!process.stdin.isTTY || !process.stderr.isTTY) {
      report(rt, o, preview);
      rt.stderr('Refusing to change openclaw.json without consent: run it on a terminal, or pass --yes.');
      return 2;
    }
    rt.stdout(preview.diff);
    if (!(await ask(`${o.undo ? 'Restore' : 'Write'} this change to ${path.join(stateDir, 'openclaw.json')}? [y/N] `))) {
      rt.stderr('Nothing changed.');
      return 1;
    }
  }
  // Exactly the change shown (its hash, taken before the question): one that differs by now —
  // the file was edited while the person read it — is refused and shown afresh.
  const done = await connectOpenClaw(stateDir, { undo: o.undo, expectDiffSha256: preview.diffSha256 }, deps);
  report(rt, o, done);
  return done.stale ? 1 : 0;
}

export function register(program: Command, rt: CliRuntime): void {
  const connect = program.command('connect').description('connect an assistant to Cairn');
  connect
    .command('openclaw')
    .description("load Cairn's plugin into OpenClaw: recall before every prompt, nothing of OpenClaw's switched off (edits openclaw.json after showing the diff; backup kept)")
    .option('--dry-run', 'print the change to openclaw.json and write nothing')
    .option('--undo', 'restore openclaw.json as it was before connect')
    .option('-y, --yes', 'write without asking')
    .option('--json', 'print the result as JSON')
    .action(async (opts: ConnectOptions) => {
      const o = { ...program.opts<GlobalOptions>(), ...opts };
      process.exitCode = await run(rt, o);
    });
}
