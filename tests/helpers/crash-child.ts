/**
 * The child of the crash test: appends entries and compacts the transcript given on the
 * command line, forever, with every choice drawn from a seeded PRNG (argv[3]) so a failing run
 * can be replayed. It prints a phase marker before each write and a confirmation after it:
 * "a" then "A <ids>" around a durable append, "w" (the compaction's write phase began: lock,
 * checkpoint, append) then "C <id>" once the compaction is on disk. stdout to a pipe is
 * synchronous on Linux, so the last line the parent reads says where its SIGKILL landed.
 */
import { CompactionSchema } from '../../electron/engine/config/schema';
import { compact } from '../../electron/engine/compaction/compact';
import { openSessionFile } from '../../electron/engine/transcript/session-file';
import { rng } from './seed-writer';

const file = process.argv[2] as string;
const random = rng(Number(process.argv[3] ?? 1));
const settings = CompactionSchema.parse({ keepRecentTokens: 300 });
const session = openSessionFile(file);
let n = 0;
process.stdout.write('ready\n');

async function main(): Promise<void> {
  for (;;) {
    if (random() < 0.6) {
      const count = 1 + Math.floor(random() * 4);
      const entries = Array.from({ length: count }, () => ({
        type: 'message',
        message: n++ % 2
          ? { role: 'assistant', content: [{ type: 'text', text: `reply ${n} about src/file${n}.ts ${'r'.repeat(Math.floor(random() * 3000))}` }] }
          : { role: 'user', content: `ask ${n}: check host-${n}.internal:${1000 + n} ${'u'.repeat(Math.floor(random() * 2000))}` },
      }));
      process.stdout.write('a\n');
      const made = session.append(...entries);
      process.stdout.write(`A ${made.map((e) => e.id).join(',')}\n`);
    } else {
      const r = await compact({
        file, settings, contextWindowTokens: 50_000,
        onProgress: (p) => void (p.phase === 'write' && process.stdout.write('w\n')),
      });
      if (r.compacted) process.stdout.write(`C ${r.entry.id}\n`);
      session.reload();
    }
    await new Promise((resolve) => setImmediate(resolve));
  }
}

void main();
