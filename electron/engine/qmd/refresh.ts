/**
 * One QMD refresh of an agent's home: export the transcripts (when sessions are on), bring
 * QMD's collections in line with the wanted ones (only when the wanted set changed, or on
 * request: listing costs a qmd start per call), `qmd update`, and `qmd embed` when the
 * search mode needs vectors; then record when, and what the files looked like.
 */
import fs from 'node:fs';
import type { QmdSettings } from '../config/schema';
import { readHomeState, writeHomeState, type QmdHome } from './home';
import { parseCollectionList, parseCollectionShow, planCollections, type WantedCollection } from './collections';
import { exportTranscripts } from './sessions-export';
import { snapshotFiles } from './snapshot';

/** Runs `qmd <args…>` in the agent's home (process.ts). */
export type RunQmd = (args: string[], timeoutMs: number, signal?: AbortSignal) => Promise<string>;

/** Deadlines for maintenance commands (searches use `memory.qmd.timeoutMs`). */
export const UPDATE_TIMEOUT_MS = 10 * 60_000;
const EMBED_TIMEOUT_MS = 60 * 60_000;

/** Key of the wanted collection set: when it changes, the collections are repaired. */
export function wantedKey(wanted: readonly WantedCollection[]): string {
  return JSON.stringify(wanted.map((w) => [w.name, w.dir, w.pattern]));
}

export interface RefreshInput {
  run: RunQmd;
  home: QmdHome;
  settings: QmdSettings;
  wanted: WantedCollection[];
  sessionsDir: string;
  now: () => number;
  /** Check the collections even when the wanted set did not change. */
  repair: boolean;
}

/** One refresh (see the file header); throws the failing command's {@link QmdError}. */
export async function refreshQmd(i: RefreshInput): Promise<void> {
  if (i.settings.sessions.enabled) exportTranscripts(i.sessionsDir, i.home);
  const key = wantedKey(i.wanted);
  const st = readHomeState(i.home);
  if (i.repair || st.collectionsKey !== key) {
    await repairCollections(i.run, i.wanted);
    writeHomeState(i.home, { collectionsKey: key });
  }
  // Taken before the update: a file changed while it runs shows up as changed next time.
  const snapshot = await snapshotFiles(i.wanted);
  await i.run(['update'], UPDATE_TIMEOUT_MS);
  if (i.settings.searchMode !== 'search') {
    await i.run(['embed'], EMBED_TIMEOUT_MS);
    writeHomeState(i.home, { lastEmbed: new Date(i.now()).toISOString() });
  }
  writeHomeState(i.home, { lastUpdate: new Date(i.now()).toISOString(), snapshot });
}

/** `collection list`, then `remove`/`add` until QMD has exactly the wanted collections. */
async function repairCollections(run: RunQmd, wanted: readonly WantedCollection[]): Promise<void> {
  const listed = parseCollectionList(await run(['collection', 'list', '--json'], UPDATE_TIMEOUT_MS));
  // Text listings do not say where a collection points: ask for the ones we keep.
  for (const c of listed) {
    if (c.path === undefined && wanted.some((w) => w.name === c.name)) {
      Object.assign(c, parseCollectionShow(c.name, await run(['collection', 'show', c.name], UPDATE_TIMEOUT_MS)));
    }
  }
  const plan = planCollections(wanted, listed);
  for (const name of plan.remove) await run(['collection', 'remove', name], UPDATE_TIMEOUT_MS);
  for (const w of plan.add) {
    fs.mkdirSync(w.dir, { recursive: true });
    await run(['collection', 'add', w.dir, '--name', w.name, '--mask', w.pattern], UPDATE_TIMEOUT_MS);
  }
}
