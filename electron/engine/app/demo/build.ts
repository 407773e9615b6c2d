/**
 * Building the demo state dir: a month of daily notes ending today, MEMORY.md, notes, four
 * sessions with tool use (one compacted twice) and an empty session "demo" to talk to, plus a
 * cairn.json that uses the small local models when they are on disk. `npm run demo` and the
 * app's "Explore a demo" both call this; neither keeps a second copy of the recipe.
 */
import fs from 'node:fs';
import path from 'node:path';
import { EngineError } from '../../core/errors';
import { createTranscriptFile } from '../../transcript/append';
import { updateSessionEntry } from '../../transcript/sessions-index';
import { seedSessions, type SeededSessions } from './seed-sessions';
import { seedMemory, type SeededMemory } from './seed-memory';

/** The file that marks a directory as made by the demo builder (only such a dir is ever replaced). */
const DEMO_MARK = '.cairn-demo';

/** The small local models the demo uses when they are on disk (null: not available). */
export interface DemoModels {
  chat: string | null;
  embedder: string | null;
}

/** What the builder made, for a summary. */
export interface BuiltDemo {
  stateDir: string;
  sessions: SeededSessions;
  memory: SeededMemory;
}

/** The dir exists and was not made by the demo builder: it is never replaced. */
export class DemoDirTakenError extends EngineError {
  constructor(readonly stateDir: string) {
    super('conflict', `${stateDir} exists and was not made by the Cairn demo; it is left alone, and the demo was not built`);
    this.name = 'DemoDirTakenError';
  }
}

/** Remove an earlier demo at `stateDir` (only one the builder made), then make the dir. */
function freshDir(stateDir: string): void {
  if (fs.existsSync(stateDir)) {
    if (!fs.existsSync(path.join(stateDir, DEMO_MARK))) throw new DemoDirTakenError(stateDir);
    fs.rmSync(stateDir, { recursive: true, force: true });
  }
  fs.mkdirSync(stateDir, { recursive: true });
}

/** cairn.json: sessions searched too (both source badges), the local models when present. */
function demoConfig(models: DemoModels): Record<string, unknown> {
  const memorySearch = { sources: ['memory', 'sessions'], ...(models.embedder ? { provider: 'local', local: { modelPath: models.embedder } } : {}) };
  // Replies capped at 256 tokens: a tiny demo model easily repeats itself up to the 4,096 default.
  const llm = models.chat ? { cairn: { llm: { provider: 'llama', modelPath: models.chat, maxOutputTokens: 256 } } } : {};
  return { agents: { defaults: { memorySearch } }, ...llm };
}

/**
 * Build a fresh demo state dir at `stateDir` (an earlier demo there is replaced; any other
 * existing dir throws DemoDirTakenError). The index is not built here: the engine that opens
 * the dir syncs it.
 */
export function buildDemo(stateDir: string, opts: { now?: Date; models?: DemoModels } = {}): BuiltDemo {
  const dir = path.resolve(stateDir);
  freshDir(dir);
  const now = opts.now ?? new Date();
  const sessions = seedSessions(dir, { now });
  const memory = seedMemory(dir, { now });
  fs.writeFileSync(path.join(dir, DEMO_MARK), 'made by the Cairn demo; removed and re-created when the demo is built again\n');
  fs.writeFileSync(path.join(dir, 'cairn.json'), `${JSON.stringify(demoConfig(opts.models ?? { chat: null, embedder: null }), null, 2)}\n`);
  // An empty session to talk to: a first message in a long seeded one would start with a
  // flush and a compaction on a tiny model's window.
  const demoFile = path.join(sessions.sessionsDir, 'demo.jsonl');
  createTranscriptFile(demoFile, { id: 'demo', timestamp: now.toISOString(), cwd: path.join(dir, 'workspace') });
  updateSessionEntry(path.join(sessions.sessionsDir, 'sessions.json'), 'demo', { sessionFile: demoFile, updatedAt: now.getTime(), compactionCount: 0, totalTokens: 0 });
  return { stateDir: dir, sessions, memory };
}
