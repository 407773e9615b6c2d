/**
 * Downloading a GGUF chat model into `cairn/models/` — only when the user asks (Settings
 * button or `cairn llm download`), with progress and cancel. node-llama-cpp's downloader
 * resolves `hf:` URIs and resumes partial files, but offline it keeps retrying for minutes,
 * so a short reachability check runs first and turns "no network" into a clear error.
 */
import fs from 'node:fs';
import path from 'node:path';
import { writeFileAtomicSync } from '../util/atomic-write';
import { abortError } from '../util/abort';
import { EngineError } from '../core/errors';

/** `cairn/models/llm-downloads.json`: which file each downloaded URI became (no network needed to find it). */
const DOWNLOADS_FILE = 'llm-downloads.json';

function readDownloads(modelsDir: string): Record<string, string> {
  try {
    const v = JSON.parse(fs.readFileSync(path.join(modelsDir, DOWNLOADS_FILE), 'utf8')) as unknown;
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, string>) : {};
  } catch {
    return {};
  }
}

/** The local file a finished download of `uri` produced, when it is still there. */
export function downloadedPath(modelsDir: string, uri: string): string | undefined {
  const file = readDownloads(modelsDir)[uri];
  return file && fs.existsSync(file) ? file : undefined;
}

function recordDownload(modelsDir: string, uri: string, file: string): void {
  writeFileAtomicSync(path.join(modelsDir, DOWNLOADS_FILE), `${JSON.stringify({ ...readDownloads(modelsDir), [uri]: file }, null, 2)}\n`);
}

/** Bytes so far of a model download. */
export interface DownloadProgressInfo {
  downloadedBytes: number;
  totalBytes: number;
}

/** Where to put the model, how to report progress, how to cancel. */
export interface DownloadOptions {
  modelsDir: string;
  signal?: AbortSignal | undefined;
  onProgress?: ((p: DownloadProgressInfo) => void) | undefined;
  /** How long the reachability check may take; default 15 s. */
  preflightTimeoutMs?: number;
  fetch?: typeof fetch;
}

/** The download could not start or did not finish; the message says why. */
export class ModelDownloadError extends EngineError {
  constructor(message: string) {
    super('unavailable', message);
    this.name = 'ModelDownloadError';
  }
}

/** Where a model URI is fetched from: Hugging Face for `hf:`, the URL's origin otherwise. */
export function downloadOrigin(uri: string): string {
  if (uri.startsWith('hf:')) {
    if (!/^hf:[^/\s]+\/[^/\s:#]+([:/#].*)?$/.test(uri)) {
      throw new ModelDownloadError(`invalid model URI ${JSON.stringify(uri)}: expected hf:<user>/<repo>/<file>.gguf or hf:<user>/<repo>:<quant>`);
    }
    return 'https://huggingface.co';
  }
  if (/^https?:\/\//.test(uri)) return new URL(uri).origin;
  throw new ModelDownloadError(`invalid model URI ${JSON.stringify(uri)}: use hf:<user>/<repo>/<file>.gguf or an https:// URL`);
}

async function preflight(uri: string, opts: DownloadOptions): Promise<void> {
  const origin = downloadOrigin(uri);
  const timeout = AbortSignal.timeout(opts.preflightTimeoutMs ?? 15_000);
  const signal = opts.signal ? AbortSignal.any([opts.signal, timeout]) : timeout;
  try {
    await (opts.fetch ?? fetch)(origin, { method: 'HEAD', signal });
  } catch (err) {
    if (opts.signal?.aborted) throw cancelled();
    const cause = (err as { cause?: { code?: string } }).cause;
    const why = timeout.aborted ? 'timed out' : (cause?.code ?? (err as Error).message);
    throw new ModelDownloadError(`cannot reach ${new URL(origin).host} (${why}): you may be offline; nothing was downloaded`);
  }
}

const cancelled = (): Error => abortError(undefined, 'model download cancelled');

/** Download `uri` into `modelsDir` (skipped when the file is already complete); returns its path. */
export async function downloadModel(uri: string, opts: DownloadOptions): Promise<string> {
  await preflight(uri, opts);
  fs.mkdirSync(opts.modelsDir, { recursive: true });
  const { createModelDownloader } = await import('node-llama-cpp');
  if (opts.signal?.aborted) throw cancelled();
  const downloader = await createModelDownloader({
    modelUri: uri,
    dirPath: opts.modelsDir,
    skipExisting: true,
    deleteTempFileOnCancel: false, // keep the partial file so the next try resumes
    onProgress: ({ downloadedSize, totalSize }) => opts.onProgress?.({ downloadedBytes: downloadedSize, totalBytes: totalSize }),
  }).catch((err: Error) => {
    throw new ModelDownloadError(`cannot download ${uri}: ${err.message}`);
  });
  try {
    const file = await downloader.download(opts.signal ? { signal: opts.signal } : {});
    // A cancelled download resolves too: check the signal and that the file is complete.
    if (opts.signal?.aborted) throw cancelled();
    const size = fs.statSync(file, { throwIfNoEntry: false })?.size;
    if (downloader.totalSize > 0 && size !== downloader.totalSize) {
      throw new ModelDownloadError(`download of ${uri} is incomplete (${size ?? 0} of ${downloader.totalSize} bytes); try again to resume`);
    }
    recordDownload(opts.modelsDir, uri, file);
    return file;
  } catch (err) {
    if (err instanceof ModelDownloadError) throw err;
    if (opts.signal?.aborted) throw cancelled();
    throw new ModelDownloadError(`download of ${uri} failed: ${(err as Error).message}`);
  }
}
