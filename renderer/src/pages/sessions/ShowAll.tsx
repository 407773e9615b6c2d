/**
 * "Show all" for a text the engine sent cut (a long tool output in the timeline or the
 * pruning view): the start as sent, how much more there is, and a button that fetches the
 * whole text on demand — so a 100 MB session's answers stay small.
 */
import { useState, type ReactNode } from 'react';
import { num } from './format';

/**
 * `text`: the start the engine sent; `length`: the whole text's; `load`: fetches it whole;
 * `whole`: how to show it once loaded (default: a pre).
 */
export function ShowAll({ text, length, load, whole }: { text: string; length: number; load: () => Promise<string>; whole?: (t: string) => ReactNode }) {
  const [full, setFull] = useState<{ text?: string; loading?: boolean; error?: string }>({});
  if (full.text !== undefined) return <>{whole ? whole(full.text) : <pre className="pre">{full.text}</pre>}</>;
  const more = length - text.length;
  if (more <= 0) return <pre className="pre">{text}</pre>;
  return (
    <>
      <pre className="pre">{`${text}\n… (${num(more)} more chars)`}</pre>
      <button
        type="button"
        className="link"
        disabled={full.loading}
        onClick={() => {
          setFull({ loading: true });
          load().then(
            (t) => setFull({ text: t }),
            (err: unknown) => setFull({ error: err instanceof Error ? err.message : String(err) }),
          );
        }}
      >
        {full.loading ? 'Loading…' : `Show all ${num(length)} chars`}
      </button>
      {full.error && (
        <p role="alert" className="error">
          Could not load the whole text: {full.error}
        </p>
      )}
    </>
  );
}
