/**
 * Pages load on first visit; if the engine (which serves the page's script and CSS) is away
 * at that moment, the load waits until it answers again and retries, instead of replacing the
 * app with "Unable to preload CSS". Should the browser still refuse (it may remember a failed
 * module), the window reloads once: drafts and the token survive in sessionStorage.
 */
import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import { whenOnline } from './stores/connection';
import { reportHealth } from './transport/health';

const RELOADED = 'cairn.chunkReload';

/** `lazy()` for a page module, retried across an engine outage. */
export function lazyPage<M>(load: () => Promise<M>, pick: (m: M) => ComponentType): LazyExoticComponent<ComponentType> {
  return lazy(async () => {
    for (let attempt = 0; ; attempt++) {
      try {
        const m = await load();
        sessionStorage.removeItem(RELOADED);
        return { default: pick(m) };
      } catch (err) {
        if (attempt >= 2) {
          if (!sessionStorage.getItem(RELOADED)) {
            sessionStorage.setItem(RELOADED, '1');
            window.location.reload();
            await new Promise<never>(() => {});
          }
          throw err;
        }
        // The chunk did not arrive: treat it as the engine being away and wait for it.
        reportHealth('down');
        await whenOnline();
      }
    }
  });
}
