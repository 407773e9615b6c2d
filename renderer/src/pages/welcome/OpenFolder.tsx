/**
 * "Open folder…": the system's folder picker in the desktop app (the preload's `pickFolder`);
 * in a browser (`cairn serve`), where a page cannot see the computer's folders, a path box.
 */
import { useState } from 'react';
import { useWelcome } from '../../stores/welcome';

export function OpenFolder() {
  const open = useWelcome((s) => s.open);
  const opening = useWelcome((s) => s.opening);
  const [path, setPath] = useState('');
  const pick = window.cairnBridge?.pickFolder;
  if (pick) {
    return (
      <button
        type="button"
        disabled={opening !== undefined}
        onClick={() => {
          void pick().then((dir) => {
            if (dir) void open(dir);
          });
        }}
      >
        Open folder…
      </button>
    );
  }
  return (
    <form
      className="row open-folder"
      onSubmit={(e) => {
        e.preventDefault();
        if (path.trim()) void open(path.trim());
      }}
    >
      <label>
        Folder{' '}
        <input type="text" value={path} onChange={(e) => setPath(e.target.value)} placeholder="/home/you/.openclaw" size={36} aria-label="Folder to open" />
      </label>
      <button type="submit" disabled={opening !== undefined || !path.trim()}>
        Open folder
      </button>
    </form>
  );
}
