/**
 * Slow health checks (`qmd --version`, loading node-llama-cpp) asked for often by Status and
 * `doctor`: a check that passed is reused for a while, per engine (a context member, dropped
 * by `dispose`), timed with the engine's clock. A check that failed is never kept: the user
 * may be repairing the cause right now, and the next check must see the repair.
 */
import type { ContextSlot, EngineContext } from './context';

interface Kept {
  at: number;
  value: Promise<unknown>;
}

const passedSlot: ContextSlot<Map<string, Kept>> = {
  name: 'passed health checks',
  create: () => new Map(),
  dispose: (kept) => kept.clear(),
};

/**
 * The result of the check `key`: the one in flight or passed less than `ttlMs` ago (on
 * `ctx.now()`), else a fresh `probe()`. A probe that rejects, or whose result `passed` says
 * is a failure, is forgotten once it settles. One key always names one kind of result.
 */
export function passedCheck<T>(ctx: Pick<EngineContext, 'member' | 'now'>, key: string, ttlMs: number, probe: () => Promise<T>, passed: (value: T) => boolean = () => true): Promise<T> {
  const kept = ctx.member(passedSlot);
  const now = ctx.now().getTime();
  const hit = kept.get(key);
  if (hit && now - hit.at < ttlMs) return hit.value as Promise<T>;
  const value = probe();
  const entry: Kept = { at: now, value };
  kept.set(key, entry);
  const forget = (): void => {
    if (kept.get(key) === entry) kept.delete(key);
  };
  value.then((v) => {
    if (!passed(v)) forget();
  }, forget);
  return value;
}
