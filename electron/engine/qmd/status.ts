/**
 * What the Status page and `cairn qmd status` show about one agent's QMD: its home, the
 * collections wanted now, the last update and embed (from the home's state file), and the
 * manager's live state (a refresh running, the last failure, when QMD is retried).
 */
import type { QmdAgentStatus } from '../../../shared/types/qmd';
import { readHomeState, type QmdHome } from './home';
import type { WantedCollection } from './collections';

/** The manager's state that the home's files do not hold. */
export interface QmdLiveState {
  updating: boolean;
  lastError: string | null;
  /** Until when searches skip QMD (epoch ms; 0 = not blocked). */
  blockedUntil: number;
}

/** One agent's QMD status. */
export function qmdAgentStatus(home: QmdHome, wanted: readonly WantedCollection[], live: QmdLiveState): QmdAgentStatus {
  const st = readHomeState(home);
  return {
    agentId: home.agentId,
    home: home.root,
    collections: wanted.map((w) => ({ name: w.name, path: w.dir, pattern: w.pattern, source: w.source })),
    lastUpdate: st.lastUpdate ?? null,
    lastEmbed: st.lastEmbed ?? null,
    updating: live.updating,
    lastError: live.lastError,
    retryAt: live.blockedUntil ? new Date(live.blockedUntil).toISOString() : null,
  };
}
