/**
 * What every CLI command gets: the engine for the chosen state dir (opened lazily, disposed
 * at exit), output helpers that respect --json, a progress bar on stderr, and the exit-code
 * convention (0 ok, 1 runtime error, 2 usage error).
 *
 * Start-up time matters here (`cairn search` should answer in a few hundred ms): the engine
 * and cli-progress are loaded on first use, not when the CLI starts, and a command that
 * calls engine modules directly takes `context()` — without the engine's every handler, but
 * made by the same root as the engine (engine/assemble.ts), so it is the same engine.
 */
import { createRequire } from 'node:module';
import { resolveStateDir } from '../engine/config/state-dir';
import type { Engine } from '../engine/engine';
import type { EngineContext, EngineDeps } from '../engine/core/context';
import type { CairnApi } from '../../shared/client';
import { runInterruptible } from './interrupt';

/**
 * Switch zod to jitless (zod-jitless.ts) before any schema module loads: zod decides per
 * schema, when the schema is built. Every command's engine modules load after this.
 */
export const jitless = (): Promise<unknown> => import('./zod-jitless');

export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

/** The exit code for what a command threw, with its message on stderr: 2 for a usage error, else 1. */
export function exitCodeFor(rt: Pick<CliRuntime, 'stderr'>, err: unknown): number {
  rt.stderr(`cairn: ${(err as Error).message}`);
  return err instanceof UsageError ? 2 : 1;
}

export interface GlobalOptions {
  stateDir?: string;
  json?: boolean;
}

export interface Progress {
  update(done: number, total: number, label?: string): void;
  stop(): void;
}

export interface CliRuntime {
  /** The engine for `--state-dir` (resolved per SPEC §1), created on first use. */
  engine(opts?: GlobalOptions): Promise<Engine>;
  /**
   * The engine context for `--state-dir` without the contract's handlers: for commands that
   * call engine modules directly (`cairn search`). Made by the engine's root
   * (engine/assemble.ts) with the same wiring as the engine — search backend, session
   * sources, transcript-change reactions; the engine's own context when the engine is open.
   */
  context(opts?: GlobalOptions): Promise<EngineContext>;
  /** The typed client over the engine for `--state-dir` (in-process, no transport). */
  api(opts?: GlobalOptions): Promise<CairnApi>;
  stdout(text: string): void;
  stderr(text: string): void;
  /** Print a value as pretty JSON on stdout. */
  json(value: unknown): void;
  /** A progress bar on stderr (a no-op when stderr is not a TTY or --json is on). */
  progress(label: string, opts?: GlobalOptions): Progress;
  /** Ctrl+C aborts this signal once; long commands pass it down. */
  readonly signal: AbortSignal;
  /**
   * Run a long command's work with Ctrl+C aborting `signal` (interrupt.ts); undefined when
   * it was cancelled (already reported, exit code 130).
   */
  interruptible<T>(what: string, fn: (signal: AbortSignal) => Promise<T>): Promise<T | undefined>;
  /** Dependencies for the engine (tests inject fakes). */
  deps: EngineDeps;
  /** `--init` was given: a missing state dir may be created. */
  init: boolean;
  dispose(): Promise<void>;
}

/**
 * May this run create a missing state dir? Only the default one (`~/.cairn`, no flag and no
 * CAIRN_STATE_DIR: the first run) or with `--init`; a mistyped path is an error.
 */
function mayCreate(rt: CliRuntime, opts: GlobalOptions): boolean {
  return rt.init || (!opts.stateDir && !process.env.CAIRN_STATE_DIR);
}

export function createRuntime(io: {
  stdout?: (s: string) => void;
  stderr?: (s: string) => void;
  deps?: EngineDeps;
  isTTY?: boolean;
  signal?: AbortSignal;
} = {}): CliRuntime {
  const stdout = io.stdout ?? ((s: string) => process.stdout.write(s));
  const stderr = io.stderr ?? ((s: string) => process.stderr.write(s));
  const engines = new Map<string, Promise<Engine>>();
  const contexts = new Map<string, EngineContext>();
  const ac = new AbortController();
  io.signal?.addEventListener('abort', () => ac.abort(), { once: true });
  const rt: CliRuntime = {
    deps: io.deps ?? {},
    init: false,
    signal: ac.signal,
    interruptible: (what, fn) => runInterruptible(ac, (t) => rt.stderr(t), what, fn),
    engine(opts = {}) {
      const dir = resolveStateDir({ flag: opts.stateDir });
      let e = engines.get(dir);
      if (!e) {
        // Built on the light context when a command made one first: one engine per dir.
        const context = contexts.get(dir);
        e = jitless()
          .then(() => import('../engine/engine'))
          .then(({ createEngine }) => createEngine({ stateDir: dir, deps: rt.deps, create: mayCreate(rt, opts), ...(context ? { context } : {}) }));
        engines.set(dir, e);
      }
      return e;
    },
    async api(opts = {}) {
      const [engine, { createDirectClient }] = await Promise.all([rt.engine(opts), import('../engine/rpc/direct')]);
      return createDirectClient(engine);
    },
    async context(opts = {}) {
      const dir = resolveStateDir({ flag: opts.stateDir });
      const e = engines.get(dir);
      if (e) return (await e).ctx;
      let c = contexts.get(dir);
      if (!c) {
        await jitless();
        const { assembleContext } = await import('../engine/assemble');
        c = contexts.get(dir) ?? assembleContext({ stateDir: dir, deps: rt.deps, create: mayCreate(rt, opts) });
        contexts.set(dir, c);
      }
      return c;
    },
    stdout: (t) => stdout(t.endsWith('\n') ? t : `${t}\n`),
    stderr: (t) => stderr(t.endsWith('\n') ? t : `${t}\n`),
    json: (v) => stdout(`${JSON.stringify(v, null, 2)}\n`),
    progress(label, opts = {}) {
      const tty = io.isTTY ?? Boolean(process.stderr.isTTY);
      if (!tty || opts.json) return { update() {}, stop() {} };
      // Required here, synchronously: loading it costs ~15 ms that most commands never need.
      const { SingleBar, Presets } = createRequire(import.meta.url)('cli-progress') as typeof import('cli-progress');
      const bar = new SingleBar(
        { format: `${label} [{bar}] {percentage}% {value}/{total} {label}`, stream: process.stderr, hideCursor: true },
        Presets.shades_classic,
      );
      let started = false;
      return {
        update(done, total, l) {
          if (!started) {
            bar.start(total, done, { label: l ?? '' });
            started = true;
          }
          bar.setTotal(total);
          bar.update(done, { label: l ?? '' });
        },
        stop() {
          if (started) bar.stop();
        },
      };
    },
    async dispose() {
      for (const e of engines.values()) await e.then((x) => x.dispose(), () => undefined);
      for (const c of contexts.values()) await c.dispose(); // idempotent when an engine was built on it
      engines.clear();
      contexts.clear();
    },
  };
  return rt;
}
