/**
 * A worker module's code (the embed, KNN and write workers) as one CommonJS script when
 * Cairn runs from its TypeScript sources (tsx): a worker would otherwise have to load tsx
 * and compile the modules itself (~0.3–0.5 s of CPU before its first call, and a tsx loader
 * thread of its own: ~15–20 MB of resident memory per worker). esbuild — tsx's own compiler, so present
 * wherever tsx is — bundles the module and its few imports instead (~50 ms, in esbuild's own
 * process). Null when esbuild is not there (the caller then falls back to tsx in the worker).
 * The CLI bundle never gets here: its worker imports the bundle's own chunk.
 *
 * The script is kept for later processes in `<Cairn's data dir>/worker-bundles/` (mode 0700),
 * checked against its inputs' mtimes and sizes. That copy is code this process runs, so it
 * is used only from a folder nobody else can write: the folder must be a real directory (not
 * a symlink) owned by the current user and writable by no one else, inside a data dir that
 * no other user can rename it out of; the file is opened without following a symlink and
 * must be a regular file of the same owner, writable by no one else. Anything else is
 * refused with a warning naming the path and why, and the script is bundled in memory for
 * this process (nothing cached) — never the command fails for it.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { cairnDataDir } from '../config/data-dir';

/** The part of esbuild's API used here (imported by name at run time). */
interface EsbuildPluginBuild {
  onResolve(o: { filter: RegExp }, cb: (args: { path: string }) => { path: string; external: boolean }): void;
}
interface EsbuildApi {
  build(o: Record<string, unknown>): Promise<{ outputFiles?: { text: string }[]; metafile?: { inputs: Record<string, unknown> } }>;
}

interface Cached {
  /** Absolute input path → [mtimeMs, size] when bundled. */
  inputs: Record<string, [number, number]>;
  code: string;
}

/** Where the bundles are cached, and who hears about a refused cache. */
export interface BundleCacheOptions {
  /** The cache folder (default `<cairnDataDir()>/worker-bundles`, read at call time). */
  dir?: string;
  /** Told once per call why the cache was not used (default: a process warning on stderr). */
  onRefused?: (message: string) => void;
}

/** Modes and owners are POSIX facts; Windows keeps a user's profile folders private already. */
const POSIX = process.platform !== 'win32' && typeof process.getuid === 'function';

/** The default cache folder: inside Cairn's own per-user data dir. */
export function workerBundleDir(env: NodeJS.ProcessEnv = process.env): string {
  return path.join(cairnDataDir(env), 'worker-bundles');
}

/** The cache file of `entry` inside `dir`. */
export function bundleCacheFile(entry: string, dir: string): string {
  const key = crypto.createHash('sha256').update(entry).digest('hex').slice(0, 16);
  return path.join(dir, `${key}.json`);
}

const octal = (mode: number): string => `0${(mode & 0o7777).toString(8)}`;

/** Why a folder or file with these facts may not hold code this process runs (null: it may). */
function foreignOrShared(st: fs.Stats): string | null {
  if (!POSIX) return null;
  const me = process.getuid?.() ?? -1;
  if (st.uid !== me) return `it is owned by uid ${st.uid}, not by this user (uid ${me})`;
  if ((st.mode & 0o022) !== 0) return `it is writable by other users (mode ${octal(st.mode)})`;
  return null;
}

/**
 * Make (0700) and check the cache folder; the reason it is unusable, or null. The data dir
 * above it may be a symlink (a moved ~/.local/state) but must not let another user rename
 * the folder away: owned by this user or root, and not writable by others unless sticky.
 */
async function unsafeDir(dir: string): Promise<string | null> {
  await fs.promises.mkdir(dir, { recursive: true, mode: 0o700 });
  const st = await fs.promises.lstat(dir);
  if (st.isSymbolicLink()) return 'it is a symlink (a cache of runnable code is never followed through one)';
  if (!st.isDirectory()) return 'it is not a directory';
  const own = foreignOrShared(st);
  if (own) return own;
  if (!POSIX) return null;
  const parent = await fs.promises.stat(path.dirname(dir));
  const me = process.getuid?.() ?? -1;
  if (parent.uid !== me && parent.uid !== 0) return `its folder ${path.dirname(dir)} is owned by uid ${parent.uid}, not by this user (uid ${me})`;
  if ((parent.mode & 0o022) !== 0 && (parent.mode & 0o1000) === 0) return `its folder ${path.dirname(dir)} is writable by other users (mode ${octal(parent.mode)})`;
  return null;
}

/** The cached bundle in `file` when it is safe to run and its inputs are unchanged; else null. */
async function readCached(file: string, refuse: (why: string) => void): Promise<string | null> {
  let handle: fs.promises.FileHandle;
  try {
    handle = await fs.promises.open(file, fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0));
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ELOOP') refuse('it is a symlink (a cache of runnable code is never followed through one)');
    else if (code !== 'ENOENT') refuse(`it cannot be opened (${code ?? (err as Error).message})`);
    return null;
  }
  try {
    const st = await handle.stat();
    const why = st.isFile() ? foreignOrShared(st) : 'it is not a regular file';
    if (why) {
      refuse(why);
      return null;
    }
    const cached = JSON.parse(await handle.readFile('utf8')) as Cached;
    return typeof cached.code === 'string' && (await fresh(cached)) ? cached.code : null;
  } catch {
    return null; // torn or unreadable JSON: build again
  } finally {
    await handle.close();
  }
}

async function fresh(c: Cached): Promise<boolean> {
  const checks = await Promise.all(
    Object.entries(c.inputs).map(async ([f, [mtime, size]]) => {
      const st = await fs.promises.stat(f).catch(() => null);
      return st !== null && st.mtimeMs === mtime && st.size === size;
    }),
  );
  return checks.length > 0 && checks.every(Boolean);
}

/**
 * Native packages stay outside a worker bundle (their `.node` files are found by path from
 * their own folder), required by absolute path: an `eval` worker's `require` resolves from
 * the working directory, not from the checkout.
 */
const NATIVE = /^(better-sqlite3|sqlite-vec)$/;

function nativeExternal(entry: string): { name: string; setup(b: EsbuildPluginBuild): void } {
  const req = createRequire(entry);
  return {
    name: 'cairn-native-external',
    setup(b) {
      b.onResolve({ filter: NATIVE }, (args) => ({ path: req.resolve(args.path), external: true }));
    },
  };
}

/** esbuild's one-script bundle of `entry` with the mtimes and sizes of its inputs; null without esbuild. */
async function bundle(entry: string): Promise<Cached | null> {
  try {
    // A computed specifier: bundlers leave it alone.
    const name = 'esbuild';
    const esbuild = (await import(name)) as EsbuildApi;
    const root = path.parse(entry).root;
    const out = await esbuild.build({
      entryPoints: [entry],
      absWorkingDir: root,
      bundle: true,
      platform: 'node',
      format: 'cjs',
      target: 'node20',
      write: false,
      metafile: true,
      logLevel: 'silent',
      plugins: [nativeExternal(entry)],
    });
    const code = out.outputFiles?.[0]?.text;
    if (!code) return null;
    const inputs: Cached['inputs'] = {};
    for (const rel of Object.keys(out.metafile?.inputs ?? {})) {
      const abs = path.resolve(root, rel);
      const st = await fs.promises.stat(abs);
      inputs[abs] = [st.mtimeMs, st.size];
    }
    return { inputs, code };
  } catch {
    return null;
  }
}

/** Write the cache file (0600, a fresh temp never followed through a symlink, then renamed). Best effort. */
async function writeCached(file: string, value: Cached): Promise<void> {
  const tmp = `${file}.${process.pid}.${crypto.randomBytes(4).toString('hex')}.tmp`;
  try {
    await fs.promises.writeFile(tmp, JSON.stringify(value), { mode: 0o600, flag: 'wx' });
    await fs.promises.rename(tmp, file);
  } catch {
    // A failed write only costs the next process another esbuild run.
    await fs.promises.rm(tmp, { force: true }).catch(() => undefined);
  }
}

function warnRefused(message: string): void {
  process.emitWarning(message, { code: 'CAIRN_UNSAFE_CACHE' });
}

/**
 * Bundle `entry`, or reuse the cached copy while its inputs are unchanged and its folder
 * and file are this user's alone (see the header); a refused cache is reported through
 * `opts.onRefused` and the bundle is made in memory.
 */
export async function buildWorkerBundle(entry: string, opts: BundleCacheOptions = {}): Promise<string | null> {
  const dir = opts.dir ?? workerBundleDir();
  const file = bundleCacheFile(entry, dir);
  let usable = true;
  const refuse = (target: string, why: string): void => {
    usable = false;
    (opts.onRefused ?? warnRefused)(`not using the worker bundle cache ${target}: ${why}; bundling in memory instead`);
  };
  const dirWhy = await unsafeDir(dir).catch((err: NodeJS.ErrnoException) => `it cannot be created (${err.code ?? err.message})`);
  if (dirWhy) refuse(dir, dirWhy);
  else {
    const cached = await readCached(file, (why) => refuse(file, why));
    if (cached !== null) return cached;
  }
  const built = await bundle(entry);
  if (!built) return null;
  if (usable) await writeCached(file, built);
  return built.code;
}

/**
 * One CommonJS script running `entry` (a .ts module) and its imports; null without esbuild.
 * Nothing is kept in the process between calls: the cache file is the memo (a read and a few
 * stats), so no module-level state outlives an engine.
 */
export function bundledSource(entry: string): Promise<string | null> {
  return buildWorkerBundle(entry);
}
