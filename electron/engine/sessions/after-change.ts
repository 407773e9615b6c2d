/**
 * After a transcript changed (a chat turn appended to it, or a compaction rewrote it), let
 * the search side know: the built-in index re-syncs the sessions source (when that source is
 * on) before its next search, and the QMD backend re-exports transcripts (when it indexes
 * sessions). Both are cheap when nothing they care about changed, and neither may fail the
 * turn or the compaction that called them.
 */
import path from 'node:path';
import type { EngineContext } from '../core/context';
import { memoryRegistry } from '../index/registry';
import { exportSessions } from '../qmd/backend';
import { memorySearchSettings } from '../config/memory-search';

export function afterTranscriptChange(ctx: EngineContext, agentId: string, file: string): void {
  try {
    const sources = memorySearchSettings(ctx.config().config, agentId).sources;
    if (sources.includes('sessions')) {
      memoryRegistry(ctx).notifyChanged(agentId, [`sessions/${path.basename(file)}`]);
    }
  } catch (err) {
    ctx.warn(`could not mark the memory index dirty after a transcript change: ${(err as Error).message}`);
  }
  try {
    exportSessions(ctx, agentId);
  } catch (err) {
    ctx.warn(`QMD session export failed: ${(err as Error).message}`);
  }
}
