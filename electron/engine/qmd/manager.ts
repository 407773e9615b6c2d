/**
 * One agent's QMD backend, assembled from its parts: the qmd processes of its home
 * (process.ts), the refresh schedule with its backoff (scheduler.ts), what one refresh does
 * — export, collection repair, `qmd update` / `qmd embed` (refresh.ts) — and one search
 * (qmd-search.ts), and its status (status.ts). This file holds what joins them: when a search
 * waits for a refresh, and the search backoff (after a failed search, searches go straight to
 * the built-in index until it expires — qmd/search-backend.ts).
 */
import { durationMs, type QmdSettings } from '../config/schema';
import type { SearchResponse } from '../../../shared/types/search';
import type { QmdAgentStatus } from '../../../shared/types/qmd';
import { readHomeState, type QmdHome } from './home';
import { QmdError } from './run';
import type { WantedCollection } from './collections';
import { sameSnapshot, snapshotFiles } from './snapshot';
import { QmdProcesses } from './process';
import { backoffMs, RefreshScheduler } from './scheduler';
import type { Timers } from '../util/timers';
import { refreshQmd, wantedKey } from './refresh';
import { runQmdSearch, type QmdSearchRequest } from './qmd-search';
import { qmdAgentStatus } from './status';

/** How long a search waits for QMD's first build before the built-in index answers. */
const SETUP_WAIT_MS = 60_000;

export interface QmdManagerOptions {
  home: QmdHome;
  /** Current settings (read on every call, so config changes apply without a restart). */
  settings: () => QmdSettings;
  /** The collections wanted now (directories may appear or vanish). */
  wanted: () => WantedCollection[];
  /** The agent's transcripts directory (exported when sessions are enabled). */
  sessionsDir: string;
  env?: NodeJS.ProcessEnv;
  now?: () => number;
  /** Status warnings (ctx.warn). */
  warn?: (message: string) => void;
  /** False when the config no longer says `memory.backend: "qmd"`: periodic refreshes stop. */
  active?: () => boolean;
  /** The refresh schedule's timers (EngineDeps.timers; default unref'd setTimeout). */
  timers?: Timers | undefined;
}

export class QmdManager {
  private readonly procs: QmdProcesses;
  private readonly refresher: RefreshScheduler;
  private searchFailures = 0;
  private searchBlockedUntil = 0;
  private lastError: string | null = null;
  private disposed = false;
  /** A refresh succeeded in this process (later periodic refreshes never hold up searches). */
  private maintainedOnce = false;
  /** A search gave up waiting for the first build; later ones do not wait for it again. */
  private setupWaitedOut = false;

  constructor(private readonly o: QmdManagerOptions) {
    this.procs = new QmdProcesses(o.home, () => o.settings().command, o.env);
    this.refresher = new RefreshScheduler({
      job: (repair) =>
        refreshQmd({ run: (a, t, s) => this.run(a, t, s), home: o.home, settings: o.settings(), wanted: o.wanted(), sessionsDir: o.sessionsDir, now: () => this.now(), repair }),
      intervalMs: () => this.intervalMs(),
      active: o.active,
      timers: o.timers,
      onSuccess: () => {
        this.maintainedOnce = true;
        this.setupWaitedOut = false;
      },
      onFailure: (err, retryMs) => {
        this.lastError = err.message;
        if (!this.disposed) this.o.warn?.(`QMD refresh failed (${err.message}); retrying in ${Math.round(retryMs / 1000)} s`);
      },
    });
  }

  private now(): number {
    return this.o.now ? this.o.now() : Date.now();
  }

  /** Run one qmd command in the agent's home (tracked, so dispose() can kill it). */
  run(args: string[], timeoutMs: number, signal?: AbortSignal): Promise<string> {
    return this.procs.run(args, timeoutMs, signal);
  }

  private intervalMs(): number {
    return durationMs(this.o.settings().update.interval);
  }

  /** QMD cannot answer correctly yet: never updated, or the wanted collections changed. */
  needsSetup(): boolean {
    const st = readHomeState(this.o.home);
    return !st.lastUpdate || st.collectionsKey !== wantedKey(this.o.wanted());
  }

  /** A refresh is due: set-up needed, or the last update is older than the interval. */
  needsMaintenance(): boolean {
    if (this.needsSetup()) return true;
    return Date.parse(readHomeState(this.o.home).lastUpdate!) + this.intervalMs() <= this.now();
  }

  /** Start periodic maintenance (first run now if needed, else when the interval is due). */
  start(): void {
    if (this.disposed || this.refresher.started) return;
    const st = readHomeState(this.o.home);
    const due = this.needsMaintenance() ? 0 : Math.max(0, Date.parse(st.lastUpdate!) + this.intervalMs() - this.now());
    this.refresher.schedule(due);
  }

  /**
   * Export transcripts, repair collections (when the wanted set changed, or `repair`),
   * `qmd update` (+ `qmd embed`). Never two at once: a call while one runs gets the running
   * one. Schedules the next run (interval on success, backoff on failure).
   */
  maintain(opts: { repair?: boolean } = {}): Promise<void> {
    return this.refresher.refresh(opts);
  }

  /**
   * Refresh soon because files changed (a transcript was exported): now when idle, else
   * once more right after the running refresh (which may have read the old files).
   */
  refreshSoon(): void {
    this.refresher.refreshSoon();
  }

  /** Memory files (or exports) were added, edited or deleted since the last update. */
  async filesChanged(): Promise<boolean> {
    const st = readHomeState(this.o.home);
    if (!st.snapshot) return false;
    return !sameSnapshot(st.snapshot, await snapshotFiles(this.o.wanted()));
  }

  /** Until when searches skip QMD after failures (0 = try QMD now). */
  blockedUntil(): number {
    return this.searchBlockedUntil > this.now() ? this.searchBlockedUntil : 0;
  }

  /** The last failure's message (for warnings), or null. */
  lastFailure(): string | null {
    return this.lastError;
  }

  /**
   * Search QMD (after a refresh when it was never built, its collections changed, or it is
   * stale). Throws a {@link QmdError} on any failure and starts the search backoff.
   */
  async search(req: QmdSearchRequest): Promise<Omit<SearchResponse, 'tookMs'>> {
    try {
      const out = await this.doSearch(req);
      this.searchFailures = 0;
      this.searchBlockedUntil = 0;
      return out;
    } catch (err) {
      const e = err instanceof QmdError ? err : new QmdError('exit', (err as Error).message);
      if (e.kind !== 'aborted' && e.kind !== 'busy') {
        this.searchFailures++;
        this.searchBlockedUntil = this.now() + backoffMs(this.searchFailures);
        this.lastError = e.message;
      }
      throw e;
    }
  }

  /**
   * Wait for a refresh only when QMD cannot answer without one (never built, collections
   * changed), for this process's first one (a one-shot CLI search must see current files),
   * or when files changed since the last update (as the built-in index syncs a dirty index
   * before searching); periodic refreshes run beside searches. The wait is bounded. Only a
   * first build that fails or takes too long stops QMD from answering (`busy` meanwhile);
   * otherwise a failed or slow refresh leaves QMD's current index to answer.
   */
  private async waitForRefreshIfNeeded(wanted: boolean): Promise<void> {
    const setup = this.needsSetup();
    const first = !this.maintainedOnce && (this.refresher.busy || this.needsMaintenance());
    if (!setup && !first && !(wanted && this.refresher.busy)) return;
    if (setup && this.setupWaitedOut && this.refresher.busy) {
      throw new QmdError('busy', 'QMD is still building its index');
    }
    const running = this.maintain();
    let timer: NodeJS.Timeout | undefined;
    const outcome = await Promise.race([
      running.then(
        () => 'done' as const,
        (err: unknown) => {
          if (setup) throw err;
          return 'failed' as const; // already warned; the index QMD has still answers
        },
      ),
      new Promise<'late'>((resolve) => {
        timer = setTimeout(() => resolve('late'), Math.max(SETUP_WAIT_MS, this.o.settings().timeoutMs));
      }),
    ]).finally(() => clearTimeout(timer));
    if (outcome === 'late') {
      running.catch(() => undefined);
      if (setup) {
        this.setupWaitedOut = true;
        throw new QmdError('busy', 'QMD is still building its index');
      }
    }
  }

  private async doSearch(req: QmdSearchRequest): Promise<Omit<SearchResponse, 'tookMs'>> {
    // Files changed since the last update: refresh now and let this search wait for it.
    const changed = !this.refresher.busy && !this.needsSetup() && (await this.filesChanged());
    if (changed) this.refreshSoon();
    await this.waitForRefreshIfNeeded(Boolean(req.waitForRefresh) || changed);
    return runQmdSearch((a, t, s) => this.run(a, t, s), this.o.settings(), this.o.wanted(), req);
  }

  /** What the Status page shows about this agent's QMD. */
  status(): QmdAgentStatus {
    return qmdAgentStatus(this.o.home, this.o.wanted(), { updating: this.refresher.busy, lastError: this.lastError, blockedUntil: this.blockedUntil() });
  }

  /** Stop the timer and kill running qmd children; waits for a running refresh to settle. */
  async dispose(): Promise<void> {
    this.disposed = true;
    this.procs.close();
    await this.refresher.dispose();
  }
}
