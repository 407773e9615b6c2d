/**
 * A child process that appends chat-style entries (user ask, assistant reply, each under
 * the previous one) through Cairn's own append API, as `cairn chat` does, until its stdin
 * ends; prints "ready" after the first pair and "done <ids>" (every id it wrote) at the end.
 * Used beside a real `cairn compact` to prove no appended line is lost.
 */
import { openSessionFile } from '../../electron/engine/transcript/session-file';

const file = process.argv[2] as string;
const session = openSessionFile(file);
const ids: string[] = [];
let stop = false;
process.stdin.on('end', () => (stop = true)).resume();

function tick(): void {
  for (let k = 0; k < 5 && !stop; k++) {
    const n = ids.length;
    const made = session.append(
      { type: 'message', message: { role: 'user', content: `ask ${n}: what is on port ${4000 + n}?` } },
      { type: 'message', message: { role: 'assistant', content: [{ type: 'text', text: `reply ${n}: ${'x'.repeat(200)}` }] } },
    );
    ids.push(...made.map((e) => e.id));
    if (n === 0) process.stdout.write('ready\n');
  }
  if (stop) process.stdout.write(`done ${ids.join(',')}\n`);
  else setImmediate(tick);
}
tick();
