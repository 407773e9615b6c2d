/**
 * One agent's QMD backend: keeps its collections in line with the config, runs
 * `qmd update` (and `qmd embed` when the search mode needs vectors) every
 * `memory.qmd.update.interval`, one maintenance run at a time with exponential backoff on
 * failure, and answers searches. A failed search puts QMD on a backoff too: until it
 * expires searches go straight to the built-in index (backend.ts), then QMD is tried again.
 */
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { durationMs, type QmdSettings } from '../config/schema';
import type { SearchResponse, SearchResult } from '../../../shared/types/search';
import type { QmdAgentStatus } from '../../../shared/types/qmd';
import { ensureQmdHome, qmdEnv, readHomeState, writeHomeState, QMD_INDEX_NAME, type QmdHome } from './home';
import { killTree, QmdError, runQmd, splitCommand } from './run';
import { parseCollectionList, parseCollectionShow, planCollections, resultPathResolver, type WantedCollection } from './collections';
import { parseQmdResults } from './results';
import { exportTranscripts } from './sessions-export';
import { sameSnapshot, snapshotFiles } from './snapshot';

/** Backoff after the n-th consecutive failure: 5 s, 10 s, 20 s … capped at 10 minutes. */
export function backoffMs(failures: number): number {
  if (failures <= 0) return 0;
  return Math.min(5_000 * 2 ** (failures - 1), 10 * 60_000);
}

/** Deadlines for maintenance commands (searches use `memory.qmd.timeoutMs`). */
const UPDATE_TIMEOUT_MS = 10 * 60_000;
const EMBED_TIMEOUT_MS = 60 * 60_000;
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
}

export interface QmdSearchRequest {
  query: string;
  maxResults: number;
  source?: 'memory' | 'sessions' | 'all' | undefined;
  explain?: boolean | undefined;
  signal?: AbortSignal | undefined;
  /** Files were just exported: wait (bounded) for the refresh that picks them up. */
  waitForRefresh?: boolean | undefined;
}

export class QmdManager {
  private maintenance: Promise<void> | null = null;
  private timer: NodeJS.Timeout | null = null;
  private readonly children = new Set<ChildProcess>();
  private updateFailures = 0;
  private searchFailures = 0;
  private searchBlockedUntil = 0;
  private lastError: string | null = null;
  private disposed = false;
  /** A refresh succeeded in this process (later periodic refreshes never hold up searches). */
  private maintainedOnce = false;
  /** A search gave up waiting for the first build; later ones do not wait for it again. */
  private setupWaitedOut = false;
  /** Files changed while a refresh ran: run another one right after it. */
  private pending = false;

  constructor(private readonly o: QmdManagerOptions) {}

  private now(): number {
    return this.o.now ? this.o.now() : Date.now();
  }

  private argv(): string[] {
    return splitCommand(this.o.settings().command, (p) => fs.existsSync(p));
  }

  /** Run one qmd command in the agent's home (tracked, so dispose() can kill it). */
  run(args: string[], timeoutMs: number, signal?: AbortSignal): Promise<string> {
    if (this.disposed) return Promise.reject(new QmdError('aborted', 'the QMD backend was shut down'));
    ensureQmdHome(this.o.home);
    // `qmd <command> --index cairn …`: the subcommand first keeps error messages readable.
    return runQmd(this.argv(), [...args.slice(0, 1), '--index', QMD_INDEX_NAME, ...args.slice(1)], {
      env: qmdEnv(this.o.home, this.o.env),
      cwd: this.o.home.root,
      timeoutMs,
      signal,
      onSpawn: (child) => {
        this.children.add(child);
        child.once('close', () => this.children.delete(child));
      },
    }).then((r) => r.stdout);
  }

  /** Key of the wanted collection set: when it changes, the collections are repaired. */
  private wantedKey(wanted: WantedCollection[]): string {
    return JSON.stringify(wanted.map((w) => [w.name, w.dir, w.pattern]));
  }

  private intervalMs(): number {
    return durationMs(this.o.settings().update.interval);
  }

  private needsVectors(): boolean {
    return this.o.settings().searchMode !== 'search';
  }

  /** QMD cannot answer correctly yet: never updated, or the wanted collections changed. */
  needsSetup(): boolean {
    const st = readHomeState(this.o.home);
    return !st.lastUpdate || st.collectionsKey !== this.wantedKey(this.o.wanted());
  }

  /** A refresh is due: set-up needed, or the last update is older than the interval. */
  needsMaintenance(): boolean {
    if (this.needsSetup()) return true;
    return Date.parse(readHomeState(this.o.home).lastUpdate!) + this.intervalMs() <= this.now();
  }

  /** Start periodic maintenance (first run now if needed, else when the interval is due). */
  start(): void {
    if (this.disposed || this.timer || this.maintenance) return;
    const st = readHomeState(this.o.home);
    const due = this.needsMaintenance() ? 0 : Math.max(0, Date.parse(st.lastUpdate!) + this.intervalMs() - this.now());
    this.schedule(due);
  }

  private schedule(delayMs: number): void {
    if (this.disposed) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      // Switched back to the built-in backend: stay idle until a QMD search starts us again.
      if (this.o.active && !this.o.active()) return;
      this.maintain().catch(() => {
        // recorded in lastError and warned; the next run is already scheduled
      });
    }, delayMs);
    // Never keep a CLI process alive for the next refresh.
    this.timer.unref();
  }

  /**
   * Export transcripts, repair collections (when the wanted set changed, or `repair`),
   * `qmd update` (+ `qmd embed`). Never two at once:
   * a call while one runs gets the running one. Schedules the next run (interval on
   * success, backoff on failure).
   */
  maintain(opts: { repair?: boolean } = {}): Promise<void> {
    if (this.maintenance) return this.maintenance;
    const run = this.doMaintain(opts.repair ?? false).then(
      () => {
        this.updateFailures = 0;
        this.maintainedOnce = true;
        this.setupWaitedOut = false;
        this.schedule(this.intervalMs());
      },
      (err: Error) => {
        this.updateFailures++;
        this.lastError = err.message;
        if (!this.disposed) this.o.warn?.(`QMD refresh failed (${err.message}); retrying in ${Math.round(backoffMs(this.updateFailures) / 1000)} s`);
        this.schedule(backoffMs(this.updateFailures));
        throw err;
      },
    );
    this.maintenance = run.finally(() => {
      this.maintenance = null;
      // After a failure the backoff stands; the pending change is picked up by that retry.
      if (this.pending && !this.disposed && this.updateFailures === 0) this.schedule(0);
      this.pending = false;
    });
    return this.maintenance;
  }

  /**
   * Refresh soon because files changed (a transcript was exported): now when idle, else
   * once more right after the running refresh (which may have read the old files).
   */
  refreshSoon(): void {
    if (this.disposed) return;
    if (this.maintenance) {
      this.pending = true;
      return;
    }
    this.maintain().catch(() => {
      // recorded and warned; retried with backoff
    });
  }

  private async doMaintain(repair: boolean): Promise<void> {
    const s = this.o.settings();
    if (s.sessions.enabled) exportTranscripts(this.o.sessionsDir, this.o.home);
    const wanted = this.o.wanted();
    const key = this.wantedKey(wanted);
    const st = readHomeState(this.o.home);
    // Checked when the wanted set changes (or on request): listing costs a qmd start per call.
    if (repair || st.collectionsKey !== key) {
      await this.repairCollections(wanted);
      writeHomeState(this.o.home, { collectionsKey: key });
    }
    // Taken before the update: a file changed while it runs shows up as changed next time.
    const snapshot = snapshotFiles(wanted);
    await this.run(['update'], UPDATE_TIMEOUT_MS);
    if (this.needsVectors()) {
      await this.run(['embed'], EMBED_TIMEOUT_MS);
      writeHomeState(this.o.home, { lastEmbed: new Date(this.now()).toISOString() });
    }
    writeHomeState(this.o.home, { lastUpdate: new Date(this.now()).toISOString(), snapshot });
  }

  /** Memory files (or exports) were added, edited or deleted since the last update. */
  filesChanged(): boolean {
    const st = readHomeState(this.o.home);
    if (!st.snapshot) return false;
    return !sameSnapshot(st.snapshot, snapshotFiles(this.o.wanted()));
  }

  /** `collection list`, then `remove`/`add` until QMD has exactly the wanted collections. */
  private async repairCollections(wanted: WantedCollection[]): Promise<void> {
    const listed = parseCollectionList(await this.run(['collection', 'list', '--json'], UPDATE_TIMEOUT_MS));
    // Text listings do not say where a collection points: ask for the ones we keep.
    for (const c of listed) {
      if (c.path === undefined && wanted.some((w) => w.name === c.name)) {
        Object.assign(c, parseCollectionShow(c.name, await this.run(['collection', 'show', c.name], UPDATE_TIMEOUT_MS)));
      }
    }
    const plan = planCollections(wanted, listed);
    for (const name of plan.remove) await this.run(['collection', 'remove', name], UPDATE_TIMEOUT_MS);
    for (const w of plan.add) {
      fs.mkdirSync(w.dir, { recursive: true });
      await this.run(['collection', 'add', w.dir, '--name', w.name, '--mask', w.pattern], UPDATE_TIMEOUT_MS);
    }
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
    const first = !this.maintainedOnce && (this.maintenance !== null || this.needsMaintenance());
    if (!setup && !first && !(wanted && this.maintenance)) return;
    if (setup && this.setupWaitedOut && this.maintenance) {
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
    const s = this.o.settings();
    // Files changed since the last update: refresh now and let this search wait for it.
    const changed = this.maintenance === null && !this.needsSetup() && this.filesChanged();
    if (changed) this.refreshSoon();
    await this.waitForRefreshIfNeeded(Boolean(req.waitForRefresh) || changed);
    const wanted = this.o.wanted().filter((w) => !req.source || req.source === 'all' || w.source === req.source);
    const warnings: string[] = [];
    let results: SearchResult[] = [];
    if (wanted.length === 0) {
      warnings.push(
        req.source === 'sessions'
          ? 'the QMD sessions collection is off (memory.qmd.sessions.enabled)'
          : 'QMD has no collections to search (memory.qmd.includeDefaultMemory is off and sessions are off)',
      );
    } else {
      // One line: a newline would turn `qmd query` input into its typed-query grammar.
      const query = req.query.replace(/\s+/g, ' ').trim();
      const args = [s.searchMode, '--json', '-n', String(req.maxResults), ...wanted.flatMap((w) => ['-c', w.name]), '--', query];
      const stdout = await this.run(args, s.timeoutMs, req.signal);
      results = parseQmdResults(stdout, resultPathResolver(wanted), { explain: req.explain, mode: s.searchMode }).slice(0, req.maxResults);
    }
    const mode = s.searchMode === 'search' ? 'fts-only' : s.searchMode === 'vsearch' ? 'vector-only' : 'hybrid';
    return { results, mode, embedder: s.searchMode === 'search' ? null : { provider: 'qmd', model: s.searchMode }, warnings, backend: 'qmd' };
  }

  /** What the Status page shows about this agent's QMD. */
  status(): QmdAgentStatus {
    const st = readHomeState(this.o.home);
    const blocked = this.blockedUntil();
    return {
      agentId: this.o.home.agentId,
      home: this.o.home.root,
      collections: this.o.wanted().map((w) => ({ name: w.name, path: w.dir, pattern: w.pattern, source: w.source })),
      lastUpdate: st.lastUpdate ?? null,
      lastEmbed: st.lastEmbed ?? null,
      updating: this.maintenance !== null,
      lastError: this.lastError,
      retryAt: blocked ? new Date(blocked).toISOString() : null,
    };
  }

  /** Stop the timer and kill running qmd children; waits for a running refresh to settle. */
  async dispose(): Promise<void> {
    this.disposed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    for (const c of this.children) killTree(c);
    await this.maintenance?.catch(() => undefined);
  }
}
