/**
 * Open the memory file outside Cairn: in the desktop app, "Open in editor"
 * (the system's default app) and "Show in folder" through memory.locate; in the browser UI of
 * `cairn serve`, which cannot reach the desktop, "Copy path" with the file's absolute path.
 */
import { useEffect, useState } from 'react';
import { api } from '../../api';
import { CopyButton } from '../../components/CopyButton';

/** The Electron preload exposes the bridge; the browser UI has none. */
const desktop = typeof window !== 'undefined' && 'cairnBridge' in window;

export function OpenOutside({ path }: { path: string }) {
  const [absPath, setAbsPath] = useState<string | undefined>();
  const [problem, setProblem] = useState<string | undefined>();

  useEffect(() => {
    setAbsPath(undefined);
    setProblem(undefined);
    if (desktop) return;
    let live = true;
    api['memory.locate']({ path }).then(
      (r) => live && setAbsPath(r.absPath),
      (err: Error) => live && setProblem(err.message),
    );
    return () => {
      live = false;
    };
  }, [path]);

  async function open(how: 'editor' | 'folder') {
    setProblem(undefined);
    try {
      const r = await api['memory.locate']({ path, open: how });
      if (!r.opened) setProblem(r.reason ?? 'not opened');
    } catch (err) {
      setProblem((err as Error).message);
    }
  }

  return (
    <span className="mem-outside">
      {desktop ? (
        <>
          <button type="button" onClick={() => void open('editor')}>
            Open in editor
          </button>
          <button type="button" onClick={() => void open('folder')}>
            Show in folder
          </button>
        </>
      ) : (
        absPath && <CopyButton text={absPath} label="Copy path" caption="Copy path" />
      )}
      {problem && (
        <span role="alert" className="error">
          {problem}
        </span>
      )}
    </span>
  );
}
