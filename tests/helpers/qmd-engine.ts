/**
 * An engine on a temp state dir with `memory.backend: "qmd"` for the QMD backend tests:
 * memory files, an optional transcript, a pinned (movable) clock, timers fired by hand (the
 * refresh schedule and its start-up delay: `timers`), the built-in index in FTS-only mode (no
 * embedder) as the fallback, and fake `qmd` scripts for the failure paths.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach } from 'vitest';
import { createEngine, type Engine } from '../../electron/engine/engine';
import { createDirectClient } from '../../electron/engine/rpc/direct';
import { ManualTimers } from './manual-timers';
import { tmpDir, writeTree } from './tmp';

const engines: Engine[] = [];
afterEach(async () => {
  while (engines.length) await engines.pop()!.dispose();
});

export const MEMORY_FILES: Record<string, string> = {
  'workspace/MEMORY.md': '# Long-term memory\n\nThe user prefers green tea over coffee.\nFavourite editor: helix.\n',
  'workspace/memory/2026-11-01.md': '# 2026-11-01\n\n## Trip\n\nBooked a flight to Lisbon on the 14th.\nHotel near Alfama, confirmation QX7731.\n',
  'workspace/memory/2026-10-20.md': '# 2026-10-20\n\nRepaired the bicycle; the rear derailleur needed a new cable.\n',
  'workspace/memory/projects/my_notes.md': '# Notes\n\nThe kayak club meets on Thursdays at the harbour.\n',
};

/** One transcript (pi v3 JSONL): line 2 user, line 3 assistant (+ a tool call), line 4 a tool result, line 5 a pasted key. */
export function transcript(): string {
  const msg = (id: string, parentId: string | null, message: object) =>
    JSON.stringify({ type: 'message', id, parentId, timestamp: '2026-11-02T09:00:00.000Z', message });
  return (
    [
      JSON.stringify({ type: 'session', version: 3, id: 's-lisbon', timestamp: '2026-11-02T09:00:00.000Z', cwd: '/' }),
      msg('a1000001', null, { role: 'user', content: 'Please remember the gate code 4471 for the flat in Lisbon.', timestamp: 1 }),
      msg('a1000002', 'a1000001', {
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: 'private reasoning platypus' },
          { type: 'text', text: 'Noted: the gate code is 4471.' },
          { type: 'toolCall', id: 't1', name: 'write', arguments: { path: 'memory/x.md' } },
        ],
        timestamp: 2,
      }),
      msg('a1000003', 'a1000002', { role: 'toolResult', toolCallId: 't1', toolName: 'write', content: [{ type: 'text', text: 'zebra tool output' }], isError: false, timestamp: 3 }),
      msg('a1000004', 'a1000003', { role: 'user', content: 'Also my key is sk-abcdefghijklmnopqrstuvwx1234, keep it safe.', timestamp: 4 }),
    ].join('\n') + '\n'
  );
}

export interface QmdEngineOptions {
  command: string;
  qmd?: Record<string, unknown>;
  backend?: 'builtin' | 'qmd';
  extraFiles?: Record<string, string>;
  /** More top-level config keys (e.g. `agents`). */
  config?: Record<string, unknown>;
}

export interface QmdEngine {
  stateDir: string;
  engine: Engine;
  api: ReturnType<typeof createDirectClient>;
  /** Move the pinned clock forward. */
  advance(ms: number): void;
  /** The engine's timers (QMD's refresh schedule, its start-up delay): nothing fires until the test advances them. */
  timers: ManualTimers;
  /** Rewrite cairn.json's memory.qmd (merged over the options) and reload. */
  setQmd(patch: Record<string, unknown>): void;
  /** Rewrite cairn.json's memory.backend and reload. */
  setBackend(backend: 'builtin' | 'qmd'): void;
}

export function startQmdEngine(opts: QmdEngineOptions): QmdEngine {
  const stateDir = tmpDir('cairn-qmd-');
  let now = Date.parse('2026-11-05T12:00:00Z');
  const timers = new ManualTimers();
  const engine = createEngine({ stateDir, deps: { createEmbedder: async () => null, now: () => new Date(now), timers } });
  engines.push(engine);
  let qmd: Record<string, unknown> = { command: opts.command, ...opts.qmd };
  let backend = opts.backend ?? 'qmd';
  const writeConfig = () => fs.writeFileSync(path.join(stateDir, 'cairn.json'), JSON.stringify({ ...opts.config, memory: { backend, qmd } }));
  writeTree(stateDir, { ...MEMORY_FILES, ...opts.extraFiles });
  writeConfig();
  engine.ctx.reloadConfig();
  return {
    stateDir,
    engine,
    api: createDirectClient(engine),
    advance: (ms) => {
      now += ms;
    },
    timers,
    setQmd(patch) {
      qmd = { ...qmd, ...patch };
      writeConfig();
      engine.ctx.reloadConfig();
    },
    setBackend(b) {
      backend = b;
      writeConfig();
      engine.ctx.reloadConfig();
    },
  };
}

/** How a fake qmd answers `search`/`vsearch`/`query` (every other command succeeds silently). */
export type FakeSearch = 'exit' | 'garbage' | 'hang' | 'empty';

/**
 * A fake `qmd` script in a temp dir. It appends each call's arguments to `log` and answers
 * `collection …`/`update` with success (`update` fails while `failUpdateFlag` exists);
 * `search` fails as asked. `hang` writes its pid to
 * `pidFile` and then `exec`s sleep (same pid), so the test can check it was killed.
 */
export function fakeQmd(kind: FakeSearch): { command: string; log: string; pidFile: string; failUpdateFlag: string; calls(): string[] } {
  const dir = tmpDir('cairn-fakeqmd-');
  const log = path.join(dir, 'calls.log');
  const pidFile = path.join(dir, 'search.pid');
  // While this file exists, `update` fails (exit 4).
  const failUpdateFlag = path.join(dir, 'fail-update');
  const search = {
    exit: 'echo "boom: index is corrupt" >&2; exit 3',
    garbage: 'echo "Results: this is not json {"',
    hang: `echo $$ > '${pidFile}'; exec sleep 600`,
    empty: 'echo "[]"',
  }[kind];
  const command = path.join(dir, 'qmd');
  fs.writeFileSync(
    command,
    `#!/bin/sh\necho "$*" >> '${log}'\n# args: <command> --index cairn …\ncase "$1" in\n  search|vsearch|query) ${search} ;;\n  update) if [ -e '${failUpdateFlag}' ]; then echo "update broke" >&2; exit 4; fi ;;\n  *) exit 0 ;;\nesac\n`,
    { mode: 0o755 },
  );
  return {
    command,
    log,
    pidFile,
    failUpdateFlag,
    calls: () => (fs.existsSync(log) ? fs.readFileSync(log, 'utf8').trim().split('\n').filter(Boolean) : []),
  };
}

/** True while a process with this pid exists. */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
