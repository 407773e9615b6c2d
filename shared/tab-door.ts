/**
 * The third door into Cairn: its window as a tab inside OpenClaw's Control UI. The
 * Control UI frames the tab with a GET/HEAD-only grant carrying `operator.read`, so this door
 * reads and never writes. One list says what it may call: the engine's bridge refuses every
 * other channel (electron/engine/openclaw/tab-read.ts) and the renderer hides what needs one.
 */
import type { Channel } from './contract';

/**
 * The read-only channels the tab may call: what the Sessions, Memory, Search and Status views
 * read. Nothing here changes a transcript, a memory file, the config or the models; a search
 * may bring Cairn's own index up to date first, as every search does.
 */
export const TAB_READ_CHANNELS = [
  'app.status',
  'state.info',
  'welcome.info',
  'sessions.overview',
  'sessions.list',
  'sessions.entries',
  'sessions.entryText',
  'prune.preview',
  'prune.text',
  'compact.plan',
  'audit.session',
  'audit.state',
  'openclaw.recall',
  'openclaw.connection',
  'memory.list',
  'memory.read',
  'memory.health',
  'dreaming.history',
  'dreaming.reports',
  'dreaming.report',
  'search.query',
  'index.status',
  'models.status',
  'llm.status',
  'qmd.status',
] as const satisfies readonly Channel[];

const READ = new Set<string>(TAB_READ_CHANNELS);

/** Whether the tab may call `channel` (a read-only channel of the list above). */
export function isTabReadChannel(channel: string): boolean {
  return READ.has(channel);
}

/** What the tab says where an action would write. */
export const TAB_READ_ONLY_NOTE = 'Read-only in OpenClaw: edit on the Gateway host with `cairn`, or in the app.';
