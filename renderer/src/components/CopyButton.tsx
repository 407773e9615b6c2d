/** A small "Copy" button (citations `path#Lx-Ly`, paths, prompts, summaries): copies to the clipboard and says so for a moment. */
import { useState } from 'react';

/** Texts longer than this (a prompt, a summary) are not repeated in the title and the "Copied" name. */
const NAME_MAX = 120;

/** `caption` is the idle visible text (default "Copy"), for when two copy buttons sit side by side. */
export function CopyButton({ text, label, caption = 'Copy' }: { text: string; label: string; caption?: string }) {
  const [done, setDone] = useState<'copied' | 'failed' | undefined>();
  const what = text.length <= NAME_MAX ? text : label.replace(/^Copy /, '');
  return (
    <button
      type="button"
      className="copy-btn"
      aria-label={done === 'copied' ? `Copied ${what}` : done === 'failed' ? 'Copy failed' : label}
      title={text.length <= NAME_MAX ? `Copy ${text}` : label}
      onClick={() => {
        navigator.clipboard.writeText(text).then(
          () => setDone('copied'),
          () => setDone('failed'),
        );
        setTimeout(() => setDone(undefined), 1500);
      }}
    >
      {done === 'copied' ? 'Copied' : done === 'failed' ? 'Copy failed' : caption}
    </button>
  );
}
