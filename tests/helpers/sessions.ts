/** Building real transcript files for tests through the engine's own append API. */
import path from 'node:path';
import { createTranscriptFile } from '../../electron/engine/transcript/append';
import { openSessionFile, type NewEntry, type SessionFile } from '../../electron/engine/transcript/session-file';
import type { Message } from '../../shared/types/messages';
import { tmpDir } from './tmp';

/**
 * A transcript of `turns` turns: user ask → assistant tool call → tool result of
 * `resultChars` chars → assistant answer. Returns the file and its open handle.
 */
export function makeSession(turns: number, opts: { resultChars?: number; dir?: string; id?: string } = {}): { file: string; session: SessionFile } {
  const dir = opts.dir ?? tmpDir();
  const id = opts.id ?? 'sess-1';
  const file = path.join(dir, `${id}.jsonl`);
  createTranscriptFile(file, { id, timestamp: '2025-03-01T00:00:00.000Z', cwd: dir });
  const session = openSessionFile(file);
  const all: NewEntry[] = [];
  for (let i = 0; i < turns; i++) all.push(...turnEntries(i, opts.resultChars ?? 400));
  if (all.length) session.append(...all); // one write + fsync for the whole set-up
  return { file, session };
}

/** Append one turn (four entries). */
export function addTurn(session: SessionFile, i: number, resultChars = 400): void {
  session.append(...turnEntries(i, resultChars));
}

function turnEntries(i: number, resultChars: number): NewEntry[] {
  const msg = (message: Message): NewEntry => ({ type: 'message', message });
  return [
    msg({ role: 'user', content: `Ask ${i}: please check src/mod${i}.ts on port ${3000 + i}.` }),
    msg({
    role: 'assistant',
    content: [
      { type: 'text', text: `Looking at src/mod${i}.ts.` },
      { type: 'toolCall', id: `call_${i}`, name: i % 2 ? 'edit' : 'read', arguments: { path: `src/mod${i}.ts` } },
    ],
    }),
    msg({
      role: 'toolResult',
      toolCallId: `call_${i}`,
      toolName: i % 2 ? 'edit' : 'read',
      content: [{ type: 'text', text: `// mod${i}\n${'x'.repeat(resultChars)}` }],
      isError: false,
    }),
    msg({ role: 'assistant', content: [{ type: 'text', text: `Done with ${i}. We decided to keep port ${3000 + i}.` }] }),
  ];
}
