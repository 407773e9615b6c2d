/**
 * Downloading a GGUF model into `<state>/cairn/models/` — only ever on the user's request
 * (SPEC §6), with progress and cancellation — and finding an already-downloaded one
 * offline. Both go through node-llama-cpp's `resolveModelFile`, which understands `hf:`
 * URIs and plain URLs, resumes partial files and deletes them on cancel.
 */
import fs from 'node:fs';
import path from 'node:path';
import { throwIfAborted } from './vector';
import { SUGGESTION_TEXT } from '../config/suggestions';

export interface DownloadProgress {
  downloadedBytes: number;
  totalBytes: number;
}

export interface DownloadOptions {
  onProgress?: (p: DownloadProgress) => void;
  signal?: AbortSignal;
  /** How long to wait for the host to answer before calling it unreachable (ms). */
  connectTimeoutMs?: number;
}

/** Where a model URI is fetched from, for the reachability check and error messages. */
export function modelHost(uri: string): string {
  if (uri.startsWith('hf:') || uri.startsWith('huggingface:')) return 'https://huggingface.co';
  try {
    return new URL(uri).origin;
  } catch {
    throw new Error(`model download: "${uri}" is neither an hf: URI nor an http(s) URL`);
  }
}

/**
 * Fail fast and clearly when the host cannot be reached: node-llama-cpp's downloader
 * otherwise retries a dead connection for minutes before giving up.
 */
async function checkReachable(uri: string, modelsDir: string, opts: DownloadOptions): Promise<void> {
  const host = modelHost(uri);
  const timeout = AbortSignal.timeout(opts.connectTimeoutMs ?? 15_000);
  const signal = opts.signal ? AbortSignal.any([opts.signal, timeout]) : timeout;
  try {
    const res = await fetch(host, { method: 'HEAD', signal, redirect: 'manual' });
    await res.body?.cancel();
  } catch (err) {
    throwIfAborted(opts.signal);
    const cause = (err as { cause?: { code?: string } }).cause?.code ?? (err as Error).message;
    throw new Error(
      `model download: cannot reach ${host} (${cause}) to fetch ${uri}. Check the network connection, ` +
        `or ${SUGGESTION_TEXT.localModelPath(modelsDir)}.`,
    );
  }
}

/**
 * Download `uri` (an `hf:user/repo/file.gguf` URI or an http(s) URL) into `modelsDir`,
 * unless it is already there. Resolves to the model file's path.
 */
export async function downloadModel(uri: string, modelsDir: string, opts: DownloadOptions = {}): Promise<string> {
  throwIfAborted(opts.signal);
  fs.mkdirSync(modelsDir, { recursive: true });
  const existing = await findDownloadedModel(uri, modelsDir);
  if (existing) return existing;
  await checkReachable(uri, modelsDir, opts);
  const { resolveModelFile } = await import('node-llama-cpp');
  const file = await resolveModelFile(uri, {
    directory: modelsDir,
    download: 'auto',
    cli: false,
    deleteTempFileOnCancel: true,
    signal: opts.signal,
    onProgress: ({ downloadedSize, totalSize }) => opts.onProgress?.({ downloadedBytes: downloadedSize, totalBytes: totalSize }),
  });
  // On cancel the downloader deletes the partial file but may still resolve: report the abort.
  throwIfAborted(opts.signal);
  return file;
}

/** The local file for `uri` when it has been downloaded into `modelsDir` (no network). */
export async function findDownloadedModel(uri: string, modelsDir: string): Promise<string | undefined> {
  // No .gguf at all (the usual case): answer without importing node-llama-cpp.
  if (!fs.existsSync(modelsDir) || !fs.readdirSync(modelsDir).some((n) => n.endsWith('.gguf'))) return undefined;
  if (/^https?:/i.test(uri)) {
    // A plain URL is saved under its file name; resolveModelFile would need the network to tell.
    const file = path.join(modelsDir, path.basename(new URL(uri).pathname));
    return fs.existsSync(file) && fs.statSync(file).size > 0 ? file : undefined;
  }
  const { resolveModelFile } = await import('node-llama-cpp');
  try {
    const file = await resolveModelFile(uri, { directory: modelsDir, download: false, cli: false });
    return fs.statSync(file).size > 0 ? file : undefined;
  } catch {
    return undefined;
  }
}

/** GGUF files present in `modelsDir` (for the Settings page and doctor). */
export function listModelFiles(modelsDir: string): { name: string; path: string; bytes: number }[] {
  if (!fs.existsSync(modelsDir)) return [];
  return fs
    .readdirSync(modelsDir)
    .filter((n) => n.endsWith('.gguf'))
    .sort()
    .map((name) => {
      const p = path.join(modelsDir, name);
      return { name, path: p, bytes: fs.statSync(p).size };
    });
}
