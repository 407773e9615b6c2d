/**
 * The per-agent QMD home (SPEC §9): `<state>/cairn/qmd/<agentId>/` with QMD's own config
 * and cache dirs, the exported session transcripts, and a small state file. QMD finds its
 * config under `$XDG_CONFIG_HOME/qmd/` (or `$QMD_CONFIG_DIR`) and its SQLite index and
 * models under `$XDG_CACHE_HOME/qmd/` (read from QMD's collections.ts and store.ts), so
 * pointing those variables here keeps every agent's QMD index apart from each other and
 * from the user's own `~/.cache/qmd`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { writeFileAtomicSync } from '../util/atomic-write';

/**
 * QMD's named index (`--index <name>`): passing a name on every call also stops QMD from
 * picking up a project-local `.qmd/index.yml` in some parent directory of the cwd.
 */
export const QMD_INDEX_NAME = 'cairn';

/** Where one agent's QMD files live. */
export interface QmdHome {
  agentId: string;
  /** `<state>/cairn/qmd/<agentId>` */
  root: string;
  /** XDG_CONFIG_HOME for QMD: its collections file is `config/qmd/cairn.yml`. */
  configHome: string;
  /** XDG_CACHE_HOME for QMD: its index is `cache/qmd/cairn.sqlite`, models in `cache/qmd/models`. */
  cacheHome: string;
  /** Session transcripts exported as Markdown (one file per session). */
  sessionsDir: string;
  /** QMD's SQLite index file (exists after the first `collection add`/`update`). */
  indexFile: string;
  /** Cairn's bookkeeping: last update, export manifest. */
  stateFile: string;
}

/**
 * The QMD home of `agentId` in Cairn's own dir for the state dir (nothing is created):
 * `cairnDir` is StateDirInfo.cairnDir — `<state>/cairn` for a dir Cairn created (the
 * default), its home in Cairn's data dir for a foreign one, which gets nothing added.
 */
export function qmdHome(stateDir: string, agentId: string, cairnDir: string = path.join(stateDir, 'cairn')): QmdHome {
  const root = path.join(cairnDir, 'qmd', agentId);
  const cacheHome = path.join(root, 'cache');
  return {
    agentId,
    root,
    configHome: path.join(root, 'config'),
    cacheHome,
    sessionsDir: path.join(root, 'sessions'),
    indexFile: path.join(cacheHome, 'qmd', `${QMD_INDEX_NAME}.sqlite`),
    stateFile: path.join(root, 'cairn-qmd.json'),
  };
}

/** Create the home's directories (idempotent). */
export function ensureQmdHome(home: QmdHome): void {
  for (const d of [home.configHome, home.cacheHome, home.sessionsDir]) fs.mkdirSync(d, { recursive: true });
}

/**
 * The environment a qmd child runs with: the caller's (PATH, HOME, proxies) plus QMD's
 * config/cache dirs pointed into the home, and no colours (output is parsed).
 */
export function qmdEnv(home: QmdHome, base: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  return {
    ...base,
    XDG_CONFIG_HOME: home.configHome,
    XDG_CACHE_HOME: home.cacheHome,
    QMD_CONFIG_DIR: path.join(home.configHome, 'qmd'),
    NO_COLOR: '1',
    FORCE_COLOR: '0',
  };
}

/** What Cairn remembers about an agent's QMD home between runs. */
export interface QmdHomeState {
  /** ISO time of the last successful `qmd update`. */
  lastUpdate?: string;
  /** ISO time of the last successful `qmd embed`. */
  lastEmbed?: string;
  /** The wanted collections (names, dirs, masks) when they were last repaired. */
  collectionsKey?: string;
  /** Collection files and their mtimes when the last successful update started. */
  snapshot?: Record<string, number>;
  /** Session export: JSONL file name → its size and mtime when exported. */
  exported?: Record<string, { size: number; mtimeMs: number }>;
}

/** Read the home's state file ({} when absent or unreadable: it is only a cache). */
export function readHomeState(home: QmdHome): QmdHomeState {
  try {
    const v = JSON.parse(fs.readFileSync(home.stateFile, 'utf8')) as unknown;
    return v && typeof v === 'object' ? (v as QmdHomeState) : {};
  } catch {
    return {};
  }
}

/** Merge `patch` into the state file (atomic write). */
export function writeHomeState(home: QmdHome, patch: Partial<QmdHomeState>): QmdHomeState {
  const next = { ...readHomeState(home), ...patch };
  fs.mkdirSync(home.root, { recursive: true });
  writeFileAtomicSync(home.stateFile, `${JSON.stringify(next, null, 2)}\n`);
  return next;
}
