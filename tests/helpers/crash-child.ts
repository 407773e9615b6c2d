/**
 * The child of the crash test: appends entries and compacts the transcript given on the
 * command line, forever, printing "A <ids>" after each durable append and "C <id>" after each
 * compaction is on disk. The parent SIGKILLs it at random moments.
 */
import { CompactionSchema } from '../../electron/engine/config/schema';
import { compact } from '../../electron/engine/compaction/compact';
import { openSessionFile } from '../../electron/engine/transcript/session-file';

const file = process.argv[2] as string;
const settings = CompactionSchema.parse({ keepRecentTokens: 300 });
const session = openSessionFile(file);
let n = 0;
process.stdout.write('ready\n');

async function main(): Promise<void> {
  for (;;) {
    if (Math.random() < 0.6) {
      const count = 1 + Math.floor(Math.random() * 4);
      const made = session.append(
        ...Array.from({ length: count }, () => ({
          type: 'message',
          message: n++ % 2
            ? { role: 'assistant', content: [{ type: 'text', text: `reply ${n} about src/file${n}.ts ${'r'.repeat(Math.floor(Math.random() * 3000))}` }] }
            : { role: 'user', content: `ask ${n}: check host-${n}.internal:${1000 + n} ${'u'.repeat(Math.floor(Math.random() * 2000))}` },
        })),
      );
      process.stdout.write(`A ${made.map((e) => e.id).join(',')}\n`);
    } else {
      const r = await compact({ file, settings, contextWindowTokens: 50_000 });
      if (r.compacted) process.stdout.write(`C ${r.entry.id}\n`);
      session.reload();
    }
    await new Promise((resolve) => setImmediate(resolve));
  }
}

void main();
