/**
 * Ctrl+C for long CLI commands (`cairn compact`, `cairn index`): the first SIGINT aborts the
 * command's AbortSignal, so the engine stops at its next check and leaves every file as it
 * was (a compaction writes nothing, a rebuild keeps the old index); a second one quits at
 * once. Without a handler SIGINT is a hard kill, which is what these commands were before.
 */

/** Exit code of a command cancelled by Ctrl+C (128 + SIGINT, as shells report it). */
const CANCELLED_EXIT_CODE = 130;

/**
 * Run `fn` with Ctrl+C wired to `ac`. Resolves to fn's value, or to undefined when it was
 * cancelled (the reason printed on stderr, process.exitCode set to 130); other errors pass.
 */
export async function runInterruptible<T>(ac: AbortController, stderr: (s: string) => void, what: string, fn: (signal: AbortSignal) => Promise<T>): Promise<T | undefined> {
  let presses = 0;
  const onSigint = () => {
    presses++;
    if (presses > 1) process.exit(CANCELLED_EXIT_CODE);
    stderr(`cairn: cancelling ${what}… (Ctrl+C again to quit at once)`);
    ac.abort();
  };
  process.on('SIGINT', onSigint);
  try {
    return await fn(ac.signal);
  } catch (err) {
    if (!ac.signal.aborted) throw err;
    stderr(`cairn: ${what} cancelled; nothing was changed`);
    process.exitCode = CANCELLED_EXIT_CODE;
    return undefined;
  } finally {
    process.off('SIGINT', onSigint);
  }
}
