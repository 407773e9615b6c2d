/**
 * The qmd processes of one agent's QMD home: each command runs in the home with its
 * environment (`--index cairn` after the subcommand), and every running child is tracked so
 * that shutting the manager down kills them all (run.ts does one child; this is the set).
 */
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { ensureQmdHome, qmdEnv, QMD_INDEX_NAME, type QmdHome } from './home';
import { killTree, QmdError, runQmd, splitCommand } from './run';

/** Runs one agent's qmd commands; `close()` kills what still runs and refuses new ones. */
export class QmdProcesses {
  private readonly children = new Set<ChildProcess>();
  private closed = false;

  constructor(
    private readonly home: QmdHome,
    /** The configured `memory.qmd.command` (read per call: config changes apply at once). */
    private readonly command: () => string,
    private readonly env?: NodeJS.ProcessEnv,
  ) {}

  /** Run `qmd <args…>` in the home; resolves with stdout, rejects with a {@link QmdError}. */
  run(args: string[], timeoutMs: number, signal?: AbortSignal): Promise<string> {
    if (this.closed) return Promise.reject(new QmdError('aborted', 'the QMD backend was shut down'));
    ensureQmdHome(this.home);
    const argv = splitCommand(this.command(), (p) => fs.existsSync(p));
    // `qmd <command> --index cairn …`: the subcommand first keeps error messages readable.
    return runQmd(argv, [...args.slice(0, 1), '--index', QMD_INDEX_NAME, ...args.slice(1)], {
      env: qmdEnv(this.home, this.env),
      cwd: this.home.root,
      timeoutMs,
      signal,
      onSpawn: (child) => {
        this.children.add(child);
        child.once('close', () => this.children.delete(child));
      },
    }).then((r) => r.stdout);
  }

  /** Kill every running child (process groups) and refuse new commands. */
  close(): void {
    this.closed = true;
    for (const c of this.children) killTree(c);
  }
}
