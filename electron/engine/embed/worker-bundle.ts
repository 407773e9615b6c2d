/**
 * The embed worker's code as one CommonJS script when Cairn runs from its TypeScript
 * sources (tsx): a worker would otherwise have to load tsx and compile the modules itself
 * (~0.3–0.5 s of CPU before its first text). esbuild — tsx's own compiler, so present
 * wherever tsx is — bundles the module and its few imports instead (~50 ms, in esbuild's own
 * process), and the result is kept in the temp dir, checked against its inputs' mtimes and
 * sizes, so later processes skip esbuild too. Null when esbuild is not there (the caller
 * then falls back to tsx in the worker). The CLI bundle never gets here: its worker imports
 * the bundle's own chunk.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** The part of esbuild's API used here (imported by name at run time). */
interface EsbuildApi {
  build(o: Record<string, unknown>): Promise<{ outputFiles?: { text: string }[]; metafile?: { inputs: Record<string, unknown> } }>;
}

interface Cached {
  /** Absolute input path → [mtimeMs, size] when bundled. */
  inputs: Record<string, [number, number]>;
  code: string;
}

const bundles = new Map<string, Promise<string | null>>();

function cacheFile(entry: string): string {
  const uid = typeof process.getuid === 'function' ? process.getuid() : 'user';
  const key = crypto.createHash('sha256').update(entry).digest('hex').slice(0, 16);
  return path.join(os.tmpdir(), `cairn-${uid}-worker-bundles`, `${key}.json`);
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

/** Bundle `entry`, or reuse the temp-dir copy while its inputs are unchanged (no in-process memo). */
export async function buildWorkerBundle(entry: string): Promise<string | null> {
  const file = cacheFile(entry);
  try {
    const cached = JSON.parse(await fs.promises.readFile(file, 'utf8')) as Cached;
    if (typeof cached.code === 'string' && (await fresh(cached))) return cached.code;
  } catch {
    // no cache yet, or unreadable: build
  }
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
    });
    const code = out.outputFiles?.[0]?.text;
    if (!code) return null;
    const inputs: Cached['inputs'] = {};
    for (const rel of Object.keys(out.metafile?.inputs ?? {})) {
      const abs = path.resolve(root, rel);
      const st = await fs.promises.stat(abs);
      inputs[abs] = [st.mtimeMs, st.size];
    }
    // Best effort: a failed write only costs the next process another esbuild run.
    await fs.promises.mkdir(path.dirname(file), { recursive: true });
    const tmp = `${file}.${process.pid}.tmp`;
    await fs.promises.writeFile(tmp, JSON.stringify({ inputs, code } satisfies Cached));
    await fs.promises.rename(tmp, file);
    return code;
  } catch {
    return null;
  }
}

/** One CommonJS script running `entry` (a .ts module) and its imports; null without esbuild. */
export function bundledSource(entry: string): Promise<string | null> {
  let job = bundles.get(entry);
  if (!job) {
    job = buildWorkerBundle(entry);
    bundles.set(entry, job);
  }
  return job;
}
