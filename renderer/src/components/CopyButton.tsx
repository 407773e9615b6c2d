/** A small "Copy" button (citations `path#Lx-Ly`, paths): copies to the clipboard and says so for a moment. */
import { useState } from 'react';

export function CopyButton({ text, label }: { text: string; label: string }) {
  const [done, setDone] = useState<'copied' | 'failed' | undefined>();
  return (
    <button
      type="button"
      className="copy-btn"
      aria-label={done === 'copied' ? `Copied ${text}` : done === 'failed' ? 'Copy failed' : label}
      title={`Copy ${text}`}
      onClick={() => {
        navigator.clipboard.writeText(text).then(
          () => setDone('copied'),
          () => setDone('failed'),
        );
        setTimeout(() => setDone(undefined), 1500);
      }}
    >
      {done === 'copied' ? 'Copied' : done === 'failed' ? 'Copy failed' : 'Copy'}
    </button>
  );
}
