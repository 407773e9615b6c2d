/**
 * Handlers of the welcome: `welcome.info` (what is open, what else is on this computer),
 * `state.open` and `demo.open`. Switching the state dir is the host's job (it swaps the
 * engine: engine/host.ts); an engine without a host (a one-shot CLI) answers `unavailable`.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { StateInfo } from '../../../shared/contract/state-info';
import type { EngineContext } from '../core/context';
import { EngineError } from '../core/errors';
import type { Handlers } from '../rpc/dispatcher';
import { expandHome } from '../config/state-dir';
import { countNotes, countSessions, demoStateDir, findOpenClawDirs, readRecent, type PeekContext } from './state-dirs';
import { buildDemo } from './demo/build';
import { findLocalChatModels, demoModelsDir } from '../llm/local-models';

function switcher(ctx: EngineContext): (dir: string) => Promise<StateInfo> {
  const sw = ctx.deps.switchStateDir;
  if (!sw) throw new EngineError('unavailable', 'Opening another folder needs the Cairn app (this engine serves one folder only).');
  return sw;
}

/** The folder a person typed or picked, checked: it must exist and be a directory. */
function existingDir(ctx: EngineContext, given: string): string {
  const env = ctx.env();
  const dir = path.resolve(expandHome(given.trim(), env.HOME || undefined));
  let stat: fs.Stats | undefined;
  try {
    stat = fs.statSync(dir);
  } catch {
    throw new EngineError('not_found', `There is no folder at ${dir}.`);
  }
  if (!stat.isDirectory()) throw new EngineError('bad_request', `${dir} is a file, not a folder: pick the folder that holds the assistant's data.`);
  return dir;
}

/** `peek`: how the welcome looks into another state dir (the engine's root makes those contexts). */
export function welcomeHandlers(ctx: EngineContext, peek: PeekContext): Pick<Handlers, 'welcome.info' | 'state.open' | 'demo.open'> {
  const env = ctx.env();
  return {
    'welcome.info': async () => {
      const s = ctx.state();
      const sessions = countSessions(ctx);
      const { notes, starterOnly } = countNotes(ctx);
      return {
        stateDir: s.stateDir,
        createdBy: s.createdBy,
        sessions,
        notes,
        empty: sessions === 0 && starterOnly,
        openclaw: await findOpenClawDirs(env, s.stateDir, peek),
        recent: readRecent(env).filter((r) => path.resolve(r.path) !== path.resolve(s.stateDir)),
        canSwitch: Boolean(ctx.deps.switchStateDir),
        demoDir: demoStateDir(env),
      };
    },
    'state.open': ({ path: given }) => switcher(ctx)(existingDir(ctx, given)),
    'demo.open': () => {
      const sw = switcher(ctx);
      const dir = demoStateDir(env);
      // The small local chat model when it is on this computer; otherwise chat offers a download.
      const chat = findLocalChatModels([{ dir: demoModelsDir(env), source: 'demo' }])[0]?.path ?? null;
      // A dir there that the demo did not make is refused (DemoDirTakenError, a conflict).
      buildDemo(dir, { now: ctx.now(), models: { chat, embedder: null } });
      return sw(dir);
    },
  };
}
