/**
 * The progress bar and "x MB of y MB" line of a running model download in Settings (the
 * embedder and the chat model panels), and the MB formatting they share.
 */
import type { DownloadProgressLike } from './useModelDownload';

/** Bytes as megabytes with one decimal ("12.3 MB"). */
export function mb(n: number): string {
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}

/** A download's bar; `progress` is undefined until the first event ("starting…"). */
export function DownloadProgress({ progress, label }: { progress: DownloadProgressLike | undefined; label: string }) {
  return (
    <div className="sync-progress">
      <progress max={progress?.totalBytes || 1} value={progress?.downloadedBytes ?? 0} aria-label={label} />
      <span className="muted">{progress ? `${mb(progress.downloadedBytes)} of ${progress.totalBytes ? mb(progress.totalBytes) : '?'}` : 'starting…'}</span>
    </div>
  );
}
