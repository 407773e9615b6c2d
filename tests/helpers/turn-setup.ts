/**
 * A session file, a workspace and turn options for `runTurn` tests: a temp state dir with
 * `agents/main/sessions/s1.jsonl`, a workspace holding `files`, a settable clock starting at
 * `TURN_T0`, and the events the turn emits.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { TurnOptions } from '../../electron/engine/chat/turn';
import { workspaceTools } from '../../electron/engine/chat/tools/workspace';
import { CompactionSchema, ContextPruningSchema } from '../../electron/engine/config/schema';
import { createTranscriptFile } from '../../electron/engine/transcript/append';
import type { ChatEvent } from '../../shared/types/chat';
import type { ScriptedLlm } from './scripted-llm';
import { tmpDir, writeTree } from './tmp';

/** The clock's start: 2026-11-30 09:00 UTC (today's note is memory/2026-11-30.md). */
export const TURN_T0 = Date.parse('2026-11-30T09:00:00Z');

export interface TurnSetup {
  dir: string;
  file: string;
  workspace: string;
  sessionsIndex: string;
  clock: { t: number };
  events: ChatEvent[];
  /** Options for one turn; `extra` overrides any of them (e.g. `compaction` for this turn only). */
  opts: (llm: ScriptedLlm | undefined, extra?: Partial<TurnOptions>) => TurnOptions;
}

/** A fresh session `s1` with `files` in its workspace (plus MEMORY.md) and the given settings. */
export function turnSetup(files: Record<string, string> = {}, settings: { compaction?: Record<string, unknown>; pruning?: Record<string, unknown> } = {}): TurnSetup {
  const dir = tmpDir();
  const workspace = path.join(dir, 'workspace');
  writeTree(workspace, { 'MEMORY.md': '# Memory\n', ...files });
  const sessionsDir = path.join(dir, 'agents', 'main', 'sessions');
  const file = path.join(sessionsDir, 's1.jsonl');
  createTranscriptFile(file, { id: 's1', timestamp: new Date(TURN_T0).toISOString(), cwd: workspace });
  const clock = { t: TURN_T0 };
  const events: ChatEvent[] = [];
  const sessionsIndex = path.join(sessionsDir, 'sessions.json');
  return {
    dir,
    file,
    workspace,
    sessionsIndex,
    clock,
    events,
    opts: (llm, extra = {}) => ({
      llm,
      file,
      sessionId: 's1',
      sessionsIndex,
      system: 'You are a test assistant.',
      tools: workspaceTools({ workspace, writable: () => true }),
      compaction: CompactionSchema.parse(settings.compaction ?? {}),
      pruning: ContextPruningSchema.parse(settings.pruning ?? {}),
      contextTokens: 200_000,
      workspace,
      writable: true,
      timeZone: 'UTC',
      now: () => new Date(clock.t),
      emit: (e) => events.push(e),
      ...extra,
    }),
  };
}

/** A transcript line as the tests read it (loosely typed on purpose: it is JSON from disk). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Line = Record<string, any>;
/** The transcript's lines as objects (header first). */
export const transcriptLines = (file: string): Line[] => fs.readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Line);
/** The roles / entry types of the transcript after its header. */
export const transcriptRoles = (file: string): string[] =>
  transcriptLines(file).slice(1).map((e) => (e.type === 'message' ? e.message.role : e.type === 'custom' ? `custom:${e.customType}` : e.type));
