/**
 * When QMD refreshes: one refresh at a time (a call while one runs gets the running one),
 * the next one after `memory.qmd.update.interval` on success or after an exponential backoff
 * on failure, and "once more right after" when files changed while one ran. The timer comes
 * from `timers` (util/timers.ts: unref'd, so a one-shot CLI process never waits for the next
 * refresh; tests fire it by hand). What a refresh does is the job it is given (refresh.ts).
 */
import { realTimers, type TimerHandle, type Timers } from '../util/timers';

/** Backoff after the n-th consecutive failure: 5 s, 10 s, 20 s … capped at 10 minutes. */
export function backoffMs(failures: number): number {
  if (failures <= 0) return 0;
  return Math.min(5_000 * 2 ** (failures - 1), 10 * 60_000);
}

export interface SchedulerOptions {
  /** One refresh (`repair`: check the collections even when the wanted set is unchanged). */
  job: (repair: boolean) => Promise<void>;
  /** The refresh interval now (read per schedule: config changes apply). */
  intervalMs: () => number;
  /** False when periodic refreshes should stop (the backend is no longer qmd). */
  active?: () => boolean;
  /** A refresh succeeded. */
  onSuccess?: () => void;
  /** A refresh failed; the next one runs in `retryMs`. */
  onFailure?: (err: Error, retryMs: number) => void;
  /** Where the schedule's timer comes from (default: unref'd setTimeout). */
  timers?: Timers | undefined;
}

export class RefreshScheduler {
  private running: Promise<void> | null = null;
  private timer: TimerHandle | null = null;
  private failures = 0;
  private disposed = false;
  /** Files changed while a refresh ran: run another one right after it. */
  private pending = false;

  constructor(private readonly o: SchedulerOptions) {}

  /** A refresh is running. */
  get busy(): boolean {
    return this.running !== null;
  }

  /** Whether a timer or a refresh is already under way (start() does nothing then). */
  get started(): boolean {
    return this.timer !== null || this.running !== null;
  }

  /** Run the next refresh in `delayMs` (replacing a timer already set). */
  schedule(delayMs: number): void {
    if (this.disposed) return;
    this.timer?.cancel();
    this.timer = (this.o.timers ?? realTimers).set(() => {
      this.timer = null;
      // Switched back to the built-in backend: stay idle until a QMD search starts us again.
      if (this.o.active && !this.o.active()) return;
      this.refresh().catch(() => {
        // recorded in lastError and reported; the next run is already scheduled
      });
    }, delayMs);
  }

  /** Refresh now, or hand back the refresh that runs. Schedules the next one either way. */
  refresh(opts: { repair?: boolean } = {}): Promise<void> {
    if (this.running) return this.running;
    const run = this.o.job(opts.repair ?? false).then(
      () => {
        this.failures = 0;
        this.o.onSuccess?.();
        this.schedule(this.o.intervalMs());
      },
      (err: Error) => {
        this.failures++;
        this.o.onFailure?.(err, backoffMs(this.failures));
        this.schedule(backoffMs(this.failures));
        throw err;
      },
    );
    this.running = run.finally(() => {
      this.running = null;
      // After a failure the backoff stands; the pending change is picked up by that retry.
      if (this.pending && !this.disposed && this.failures === 0) this.schedule(0);
      this.pending = false;
    });
    return this.running;
  }

  /** Files changed: refresh now when idle, else once more right after the running refresh. */
  refreshSoon(): void {
    if (this.disposed) return;
    if (this.running) {
      this.pending = true;
      return;
    }
    this.refresh().catch(() => {
      // recorded and reported; retried with backoff
    });
  }

  /** Stop the timer; resolves once a running refresh has settled. */
  async dispose(): Promise<void> {
    this.disposed = true;
    this.timer?.cancel();
    this.timer = null;
    await this.running?.catch(() => undefined);
  }
}
