// @ts-check
/**
 * The plugin's end of the bridge to Cairn: one `cairn openclaw-bridge` child per OpenClaw
 * process, started on first use under the absolute Node that installed Cairn (OpenClaw puts
 * its own Node 24 first on PATH, and Cairn's native modules are built for Cairn's Node), and
 * started again on the next request after it died. JSON lines over the child's stdin/stdout
 * (electron/engine/openclaw/bridge.ts is the other end), framed by wire.js: ended at '\n' only,
 * never with readline (on OpenClaw's Node 24 it also ends a line at U+2028/U+2029). Nothing
 * native of Cairn's loads here.
 *
 * Every request has a time budget; a request past it is cancelled on Cairn's side (which logs
 * it) and rejected here with a `BridgeError` whose `kind` says why, so the caller can go on
 * without Cairn. The child and its pipes are unref'd: Cairn never keeps a one-shot
 * `openclaw agent` alive, and the child ends when its stdin closes with OpenClaw's exit.
 */
import { spawn } from 'node:child_process';
import { checkAnswer, encodeLine, LineSplitter } from './wire.js';

/** Why a request to Cairn failed: `timeout` (over budget), `unavailable` (no bridge), `error` (Cairn answered with an error). */
export class BridgeError extends Error {
  /**
   * @param {'timeout' | 'unavailable' | 'error'} kind
   * @param {string} message
   */
  constructor(kind, message) {
    super(message);
    this.name = 'BridgeError';
    this.kind = kind;
  }
}

/**
 * @typedef {object} BridgeOptions
 * @property {string} node absolute Node path
 * @property {string} bin absolute bin/cairn.mjs
 * @property {string} stateDir the OpenClaw state dir
 * @property {string} [dataDir] CAIRN_DATA_DIR
 * @property {Record<string, string>} [env] extra variables
 */

/** @typedef {{ op: import('./wire.js').BridgeOp, resolve: (v: any) => void, reject: (e: Error) => void, timer: NodeJS.Timeout }} Pending */
/** @typedef {import('./wire.js').AnsweredRequest} AnsweredRequest */
/** @typedef {import('./wire.js').BridgeResults} BridgeResults */
/**
 * The fields of an `op` request (wire.js), without the op.
 * @template {keyof BridgeResults} O
 * @typedef {Omit<Extract<AnsweredRequest, { op: O }>, 'op'>} ArgsOf
 */

/** Don't restart a bridge that keeps dying faster than this (ms): wait this long before the next start. */
const RESTART_PAUSE_MS = 5000;

export class CairnBridge {
  /** @param {BridgeOptions} opts */
  constructor(opts) {
    this.opts = opts;
    /** @type {import('node:child_process').ChildProcess | null} */
    this.child = null;
    /** @type {Map<number, Pending>} */
    this.pending = new Map();
    this.nextId = 1;
    /** @type {Promise<import('./wire.js').HelloResult> | null} the running start's hello */
    this.hello = null;
    /** Why the last bridge ended (for the warning), and when. */
    this.lastExit = '';
    this.lastStartAt = 0;
    /** Until when a request may wait for the running start's hello (set by the request that started it). */
    this.startDeadline = 0;
    /** @type {string[]} the child's last stderr lines */
    this.stderrTail = [];
    this.readyFlag = false;
    /** The agent whose index Cairn warms up when it starts. */
    this.warmAgent = 'main';
  }

  /** Whether a started bridge has answered its hello. */
  get ready() {
    return this.child !== null && this.readyFlag === true;
  }

  /** The child's environment: OpenClaw's, without what would make Cairn's Node misbehave, plus ours. */
  childEnv() {
    /** @type {Record<string, string | undefined>} */
    const env = { ...process.env };
    // OpenClaw's own Node flags and Electron switch are not for Cairn's Node.
    delete env.NODE_OPTIONS;
    delete env.ELECTRON_RUN_AS_NODE;
    if (this.opts.dataDir) env.CAIRN_DATA_DIR = this.opts.dataDir;
    return { ...env, ...(this.opts.env ?? {}) };
  }

  /** Spawn the child (if none runs) and send its hello; resolves when Cairn answered it. */
  start() {
    if (this.child && this.hello) return this.hello;
    if (this.lastStartAt && Date.now() - this.lastStartAt < RESTART_PAUSE_MS && this.lastExit) {
      return Promise.reject(new BridgeError('unavailable', `Cairn's bridge ended a moment ago (${this.lastExit}); not restarting it yet`));
    }
    this.lastStartAt = Date.now();
    this.startDeadline = 0;
    this.readyFlag = false;
    this.stderrTail = [];
    const { node, bin, stateDir } = this.opts;
    let child;
    try {
      child = spawn(node, [bin, '--state-dir', stateDir, 'openclaw-bridge'], { stdio: ['pipe', 'pipe', 'pipe'], env: this.childEnv(), windowsHide: true });
    } catch (err) {
      this.lastExit = `cannot start ${node}: ${/** @type {Error} */ (err).message}`;
      return Promise.reject(new BridgeError('unavailable', this.lastExit));
    }
    this.child = child;
    child.unref();
    for (const s of [child.stdin, child.stdout, child.stderr]) /** @type {any} */ (s)?.unref?.();
    child.stdin?.on('error', () => {});
    child.on('error', (err) => this.ended(child, `cannot start Cairn with ${node}: ${err.message}`));
    child.on('exit', (code, signal) => {
      const tail = this.stderrTail.slice(-2).join(' ').trim();
      this.ended(child, `Cairn's bridge exited (${signal ?? `code ${code}`})${tail ? `: ${tail}` : ''}`);
    });
    child.stderr?.setEncoding('utf8').on('data', (/** @type {string} */ c) => {
      this.stderrTail.push(...c.split('\n').filter(Boolean));
      this.stderrTail = this.stderrTail.slice(-5);
    });
    const lines = new LineSplitter();
    child.stdout?.setEncoding('utf8').on('data', (/** @type {string} */ c) => {
      for (const line of lines.push(c)) this.answer(line);
    });
    this.hello = this.send('hello', { warm: this.warmAgent }, 0).then((v) => {
      this.readyFlag = true;
      return v;
    });
    // A failed hello is reported by whoever awaits it; this keeps it from being "unhandled".
    this.hello.catch(() => {});
    return this.hello;
  }

  /**
   * @param {import('node:child_process').ChildProcess} child
   * @param {string} why
   */
  ended(child, why) {
    if (this.child !== child) return;
    this.child = null;
    this.hello = null;
    this.readyFlag = false;
    this.lastExit = why;
    for (const [id, p] of this.pending) {
      clearTimeout(p.timer);
      p.reject(new BridgeError('unavailable', why));
      this.pending.delete(id);
    }
  }

  /** @param {string} line */
  answer(line) {
    let value;
    try {
      value = JSON.parse(line);
    } catch {
      return; // not ours (Cairn writes nothing else on stdout; a stray line is ignored)
    }
    // Checked against the wire's description (wire.js): a result of the wrong shape is an error, not a crash later.
    const msg = checkAnswer(value, (id) => this.pending.get(id)?.op);
    const p = msg.id === null ? undefined : this.pending.get(msg.id);
    if (!p || msg.id === null) return;
    this.pending.delete(msg.id);
    clearTimeout(p.timer);
    if (msg.ok) p.resolve(msg.result);
    else p.reject(new BridgeError('error', msg.error));
  }

  /**
   * Send one request on the running child. `budgetMs` 0: no budget of its own (the hello,
   * bounded by its caller).
   * @template {keyof BridgeResults} O
   * @param {O} op
   * @param {ArgsOf<O>} args
   * @param {number} budgetMs
   * @returns {Promise<BridgeResults[O]>}
   */
  send(op, args, budgetMs) {
    const child = this.child;
    if (!child?.stdin?.writable) return Promise.reject(new BridgeError('unavailable', this.lastExit || "Cairn's bridge is not running"));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => {
          if (!this.pending.delete(id)) return;
          // Cairn stops the work and logs the timeout; the turn goes on now.
          this.write({ id: this.nextId++, op: 'cancel', target: id });
          reject(new BridgeError('timeout', `Cairn did not answer ${op} within ${budgetMs} ms`));
        },
        budgetMs > 0 ? budgetMs : 2 ** 31 - 1,
      );
      if (budgetMs <= 0) timer.unref();
      this.pending.set(id, { op, resolve, reject, timer });
      this.write(/** @type {{ id: number } & import('./wire.js').BridgeRequest} */ ({ id, op, ...args }));
    });
  }

  /** @param {{ id: number } & import('./wire.js').BridgeRequest} msg */
  write(msg) {
    try {
      this.child?.stdin?.write(encodeLine(msg));
    } catch {
      // the exit handler reports it
    }
  }

  /**
   * One request, starting Cairn first if needed. A start (the process up and its `hello`,
   * which answers before the index warms up) may take `startupBudgetMs` — once, counted from
   * the start, not again for every request that finds it still starting; a request never
   * waits for it less than its own `budgetMs`. Then the request itself has `budgetMs`: while
   * Cairn warms up (a rebuild after an upgrade), a prompt waits its own 300 ms, not the start-up's 2 s.
   * @template {keyof BridgeResults} O
   * @param {O} op
   * @param {ArgsOf<O>} args
   * @param {{ budgetMs: number, startupBudgetMs: number }} budgets
   * @returns {Promise<BridgeResults[O]>}
   */
  async request(op, args, budgets) {
    if ('agentId' in args && typeof args.agentId === 'string' && !this.child) this.warmAgent = args.agentId;
    if (!this.ready) {
      const starting = this.child !== null && this.hello !== null;
      const hello = this.start();
      if (!starting) this.startDeadline = Date.now() + budgets.startupBudgetMs;
      const wait = Math.max(this.startDeadline - Date.now(), budgets.budgetMs);
      await withBudget(hello, wait, `Cairn did not start within ${Math.round(wait)} ms`);
    }
    return this.send(op, args, budgets.budgetMs);
  }

  /** Stop the child (OpenClaw's gateway is stopping). */
  dispose() {
    const child = this.child;
    this.ended(/** @type {any} */ (child), 'stopped with OpenClaw');
    child?.stdin?.end();
    child?.kill();
  }
}

/**
 * `p`, or a `timeout` BridgeError after `ms`.
 * @template T
 * @param {Promise<T>} p
 * @param {number} ms
 * @param {string} message
 * @returns {Promise<T>}
 */
function withBudget(p, ms, message) {
  /** @type {NodeJS.Timeout | undefined} */
  let timer;
  const t = new Promise((_resolve, reject) => {
    timer = setTimeout(() => reject(new BridgeError('timeout', message)), ms);
  });
  return /** @type {Promise<T>} */ (Promise.race([p, t]).finally(() => clearTimeout(timer)));
}
