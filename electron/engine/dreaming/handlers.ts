/**
 * Handlers of dreaming.history / dreaming.reports / dreaming.report: read OpenClaw's files
 * and stores read-only, remember the MEMORY.md text Cairn sees (in Cairn's own dir), and
 * hand the pure builders (history.ts, reports.ts) what they need.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { EngineContext } from '../core/context';
import { EngineError } from '../core/errors';
import type { Handlers } from '../rpc/dispatcher';
import type { MemoryHistory } from '../../../shared/types/dreaming';
import { snapshotDirFor } from '../sessions/store';
import { thresholdsFrom } from './evidence';
import { buildHistory } from './history';
import { readDreamingState } from './plugin-state';
import { readSearchCalls } from './recall-sessions';
import { deepReportReasons, listManagedBlocks, listReportFiles, MAX_TEXT, readReportText } from './reports';
import { readSeenVersions, rememberVersion } from './seen-versions';

type DreamingChannels = 'dreaming.history' | 'dreaming.reports' | 'dreaming.report';

/** Where Cairn keeps the MEMORY.md versions it saw for `agentId` (its own dir for this state dir). */
export function seenVersionsDir(ctx: EngineContext, agentId: string): string {
  const cairnDir = path.dirname(path.dirname(ctx.paths(agentId).indexFile));
  return path.join(cairnDir, 'memory-history', agentId);
}

/** MEMORY.md (or memory.md) of a workspace with its mtime, when it exists and is not too big. */
function readCurrentMemory(workspace: string): { text: string; mtime: Date } | undefined {
  for (const name of ['MEMORY.md', 'memory.md']) {
    try {
      const st = fs.statSync(path.join(workspace, name));
      if (!st.isFile() || st.size > MAX_TEXT) continue;
      return { text: fs.readFileSync(path.join(workspace, name), 'utf8'), mtime: st.mtime };
    } catch {
      // not there: try the other name
    }
  }
  return undefined;
}

/** MEMORY.md's history for one agent (used by the channel and the CLI). */
export function memoryHistory(ctx: EngineContext, requested?: string): MemoryHistory {
  const agentId = ctx.agentId(requested);
  const { workspace } = ctx.paths(agentId);
  const snapshotDir = snapshotDirFor(ctx, agentId);
  const state = readDreamingState(ctx.stateDir, workspace, snapshotDir);
  const current = readCurrentMemory(workspace);
  const dir = seenVersionsDir(ctx, agentId);
  const seen = current ? rememberVersion(dir, current.text, ctx.now()) : readSeenVersions(dir);
  const history = buildHistory({
    agentId,
    state,
    seen,
    ...(current ? { current } : {}),
    calls: readSearchCalls(ctx.stateDir, agentId, snapshotDir),
    thresholds: thresholdsFrom(ctx.config().raw),
    now: ctx.now(),
  });
  const deep = deepReportReasons(workspace);
  return deep ? { ...history, deepReport: deep } : history;
}

/** Remember the MEMORY.md text on disk now as a version Cairn saw (nothing when there is none). */
function rememberCurrent(ctx: EngineContext, agentId: string): void {
  const current = readCurrentMemory(ctx.paths(agentId).workspace);
  if (current) rememberVersion(seenVersionsDir(ctx, agentId), current.text, ctx.now());
}

export function dreamingHandlers(ctx: EngineContext): Pick<Handlers, DreamingChannels> {
  // While Cairn watches the memory files, each new text of MEMORY.md (a sweep's rewrite, an
  // edit) is kept as it appears, so the timeline has every version, not only dreaming's copies.
  const off = ctx.events.on('memory.changed', ({ agentId, paths }) => {
    if (!paths.some((p) => /^memory\.md$/iu.test(p))) return;
    try {
      rememberCurrent(ctx, agentId);
    } catch {
      // an agent gone or a path unreadable: the next history read remembers it
    }
  });
  ctx.onDispose(off);
  return {
    'dreaming.history': async ({ agentId }) => memoryHistory(ctx, agentId),
    'dreaming.reports': async ({ agentId }) => {
      const id = ctx.agentId(agentId);
      const { workspace } = ctx.paths(id);
      return { agentId: id, files: listReportFiles(workspace), managedBlocks: listManagedBlocks(workspace) };
    },
    'dreaming.report': async ({ path: rel, agentId }) => {
      const { workspace } = ctx.paths(ctx.agentId(agentId));
      if (!listReportFiles(workspace).some((f) => f.path === rel)) throw new EngineError('not_found', `${rel}: not one of dreaming's reports (DREAMS.md or memory/dreaming/<phase>/YYYY-MM-DD.md)`);
      return readReportText(workspace, rel);
    },
  };
}
