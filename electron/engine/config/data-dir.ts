/**
 * Cairn's own per-user data dir, outside every state dir: where Cairn keeps its files for a
 * state dir it did not create (an OpenClaw `~/.openclaw`) so that nothing is added to that
 * dir, and the models it downloads once per user.
 *
 *   <data>/state-dirs/<key>/          one per foreign state dir (key: sha256 of its real path)
 *     source.json                     which dir this is, for a person looking around
 *     state.json                      the writable marker (writing turned on or off)
 *     cairn.json                      settings changed in Cairn (over the dir's own config)
 *     index/<agentId>.sqlite          the search index
 *     openclaw-snapshots/<agentId>/   copies of OpenClaw's database while it has a -wal open
 *     openclaw-connect/               openclaw.json as it was before `cairn connect openclaw`
 *     openclaw-recall/<agent>/<session>.jsonl   what Cairn's OpenClaw plugin recalled per prompt
 *     openclaw-compactions.jsonl      OpenClaw's compactions, as the plugin's hooks saw them
 *     serve-token                     `cairn serve`'s token
 *   <data>/models/                    downloaded models, shared by every foreign dir
 *   <data>/worker-bundles/            the embed worker bundled from the sources (0700; embed/worker-bundle.ts)
 *
 * `<data>` is $CAIRN_DATA_DIR, else $XDG_STATE_HOME/cairn, else ~/.local/state/cairn (the
 * place the serve token of a foreign dir already used).
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** The per-user data dir (nothing is created). */
export function cairnDataDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.CAIRN_DATA_DIR) return path.resolve(env.CAIRN_DATA_DIR);
  return path.join(env.XDG_STATE_HOME || path.join(os.homedir(), '.local', 'state'), 'cairn');
}

/** The key of a state dir: its real path (symlinks resolved) hashed, so two spellings share one home. */
export function stateDirKey(stateDir: string): string {
  let real = path.resolve(stateDir);
  try {
    real = fs.realpathSync(real);
  } catch {
    // not there (yet): the resolved path
  }
  return crypto.createHash('sha256').update(real).digest('hex').slice(0, 16);
}

/** Where Cairn keeps its own files for the foreign state dir `stateDir` (nothing is created). */
export function foreignStateHome(stateDir: string, env: NodeJS.ProcessEnv = process.env): string {
  return path.join(cairnDataDir(env), 'state-dirs', stateDirKey(stateDir));
}

/** Models downloaded once per user, for every foreign state dir. */
export function sharedModelsDir(env: NodeJS.ProcessEnv = process.env): string {
  return path.join(cairnDataDir(env), 'models');
}

/** Create the home of a foreign state dir, with a `source.json` naming the dir it belongs to. */
export function ensureForeignStateHome(stateDir: string, env: NodeJS.ProcessEnv = process.env): string {
  const home = foreignStateHome(stateDir, env);
  const source = path.join(home, 'source.json');
  if (!fs.existsSync(source)) {
    fs.mkdirSync(home, { recursive: true });
    fs.writeFileSync(source, `${JSON.stringify({ stateDir: path.resolve(stateDir) }, null, 2)}\n`);
  }
  return home;
}
