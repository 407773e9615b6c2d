/**
 * Timers a test fires by hand (EngineDeps.timers): nothing runs until `advance()` moves this
 * clock past a timer's due time, so a schedule of seconds or minutes is tested in no time and
 * in a known order. `nextSet()` waits (on the event, not the clock) until the code under test
 * sets its next timer — which is how a test knows an asynchronous step has finished.
 */
import type { TimerHandle, Timers } from '../../electron/engine/util/timers';

interface Pending {
  at: number;
  seq: number;
  fn: () => void;
}

export class ManualTimers implements Timers {
  private clock = 0;
  private seq = 0;
  private queue: Pending[] = [];
  private waiters: ((delayMs: number) => void)[] = [];

  set(fn: () => void, ms: number): TimerHandle {
    const t: Pending = { at: this.clock + Math.max(0, ms), seq: this.seq++, fn };
    this.queue.push(t);
    // Told on the next turn of the event loop, as a real timer could fire at the earliest: the
    // code that set it finishes its current step (its promise callbacks) first.
    for (const w of this.waiters.splice(0)) setImmediate(() => w(ms));
    return { cancel: () => void (this.queue = this.queue.filter((x) => x !== t)) };
  }

  /** The delays (from now) of the timers still pending, soonest first. */
  pending(): number[] {
    return this.sorted().map((t) => t.at - this.clock);
  }

  /** Resolves with its delay when the next timer is set (after this call), on the loop's next turn. */
  nextSet(): Promise<number> {
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /** Move this clock `ms` forward and run, in order, every timer that falls due. */
  advance(ms: number): void {
    const until = this.clock + ms;
    for (let t = this.sorted()[0]; t && t.at <= until; t = this.sorted()[0]) {
      this.queue = this.queue.filter((x) => x !== t);
      this.clock = t.at;
      t.fn();
    }
    this.clock = until;
  }

  private sorted(): Pending[] {
    return [...this.queue].sort((a, b) => a.at - b.at || a.seq - b.seq);
  }
}
