/** Reading a child process's stdout line by line in tests: the next line, or an error if it ended. */
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import readline from 'node:readline';

/** `next()` resolves to the child's next stdout line; rejects when the child ended first. */
export function childLines(child: ChildProcessWithoutNullStreams, who = 'the child'): () => Promise<string> {
  const lines = readline.createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  return async () => {
    const r = await lines.next();
    if (r.done) throw new Error(`${who} ended before printing the expected line`);
    return r.value;
  };
}
