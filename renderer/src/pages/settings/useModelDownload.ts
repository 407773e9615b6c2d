/**
 * The state machine Settings shares for "a model status + download it with a progress bar and
 * Cancel": the embedder (models.status/download/progress) and the chat model
 * (llm.status/download/downloadProgress) differ only in their channels and success message.
 * The status is (re)read on mount, on `config.changed` and after every download attempt.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import type { CallOptions } from '../../../../shared/client';
import { api } from '../../api';

/** What a progress event must carry for the bar (both models.progress and llm.downloadProgress do). */
export interface DownloadProgressLike {
  opId?: string;
  downloadedBytes: number;
  totalBytes: number;
}

/**
 * Where one panel's status and download come from. Pass a module-level constant: the hook
 * subscribes once per source, so a new object every render would resubscribe every render.
 */
export interface ModelDownloadSource<S, P extends DownloadProgressLike> {
  /** Read the status the panel shows. */
  loadStatus(): Promise<S>;
  /** Subscribe to the download's progress event; returns the unsubscribe. */
  onProgress(listener: (progress: P) => void): () => void;
  /** Start the download with the hook's signal and opId (progress events carry that opId). */
  download(options: CallOptions): Promise<{ path: string }>;
  /** The status line after a successful download. */
  doneMessage(path: string): string;
}

/** The panel's view of the download: everything it renders, and the two actions. */
export interface ModelDownload<S, P> {
  status: S | undefined;
  /** Why the status could not be read (cleared by the next successful read). */
  error: string | undefined;
  /** The latest progress of this panel's running download (undefined until the first event). */
  progress: P | undefined;
  downloading: boolean;
  /** The outcome of the last download: done, cancelled or failed. */
  message: string | undefined;
  /** Start a download; resolves once it has ended whichever way (never rejects). */
  download(): Promise<void>;
  /** Abort the running download (the engine is told through op.cancel and keeps nothing). */
  cancel(): void;
}

/** Status + download-with-progress-and-cancel for one model source (see ModelDownloadSource). */
export function useModelDownload<S, P extends DownloadProgressLike>(source: ModelDownloadSource<S, P>): ModelDownload<S, P> {
  const [status, setStatus] = useState<S | undefined>();
  const [error, setError] = useState<string | undefined>();
  const [progress, setProgress] = useState<P | undefined>();
  const [downloading, setDownloading] = useState(false);
  const [message, setMessage] = useState<string | undefined>();
  const ctl = useRef<AbortController | undefined>(undefined);
  const opId = useRef<string | undefined>(undefined);

  const load = useCallback(async () => {
    try {
      setStatus(await source.loadStatus());
      setError(undefined);
    } catch (err) {
      setError((err as Error).message);
    }
  }, [source]);

  useEffect(() => {
    void load();
    const offs = [api.on('config.changed', () => void load())];
    try {
      offs.push(
        source.onProgress((p) => {
          // Events without an opId are shown too; another panel's or window's download is not.
          if (!p.opId || p.opId === opId.current) setProgress(p);
        }),
      );
    } catch (err) {
      // An engine without the progress event: the download still works, without a bar.
      setError((err as Error).message);
    }
    return () => {
      offs.forEach((off) => off());
      // Leaving the page cancels the download: nothing would show its end.
      ctl.current?.abort();
    };
  }, [load, source]);

  async function download() {
    const c = new AbortController();
    ctl.current = c;
    opId.current = globalThis.crypto.randomUUID();
    setDownloading(true);
    setProgress(undefined);
    setMessage(undefined);
    try {
      const res = await source.download({ signal: c.signal, opId: opId.current });
      setMessage(source.doneMessage(res.path));
    } catch (err) {
      const e = err as Error & { code?: string };
      setMessage(e.code === 'cancelled' ? 'Download cancelled; nothing was kept.' : `Download failed: ${e.message}`);
    } finally {
      setDownloading(false);
      void load();
    }
  }

  return { status, error, progress, downloading, message, download, cancel: () => ctl.current?.abort() };
}
