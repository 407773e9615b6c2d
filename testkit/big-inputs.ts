/**
 * The big inputs of issue 14.2, generated into a test's temp state dir (never committed): a
 * 10,000-entry, ~100 MB session whose every third tool result is 120 KB, and a 6 MB memory
 * file. Deterministic, so the e2e budgets always measure the same bytes.
 */
import fs from 'node:fs';
import path from 'node:path';
import { addIndexEntry, writeMarker } from '../electron/engine/app/demo/seed-index';
import { seedUuid, TranscriptBuilder } from '../electron/engine/app/demo/seed-writer';

const DAY = 24 * 60 * 60 * 1000;

/** A tool output of exactly `chars` characters: numbered log lines, like a big build log. */
function logText(chars: number, seed: number): string {
  const parts: string[] = [];
  let n = 0;
  for (let i = 0; n < chars; i++) {
    const line = `[${String(i).padStart(6, '0')}] worker-${(i * 7 + seed) % 13} step ${i} ok checksum=${((i * 2654435761 + seed) >>> 0).toString(16)}\n`;
    parts.push(line);
    n += line.length;
  }
  return parts.join('').slice(0, chars);
}

export interface BigSession {
  sessionId: string;
  file: string;
  entries: number;
  bytes: number;
}

/** Write the 10,000-entry session into `stateDir` (agent main) with its sessions.json entry. */
export function writeBigSession(stateDir: string, entries = 10_000, bigResultChars = 120_000): BigSession {
  const dir = path.join(stateDir, 'agents', 'main', 'sessions');
  writeMarker(stateDir, 'cairn', new Date());
  const b = new TranscriptBuilder(seedUuid(14_200), Date.now() - 20 * DAY, 14_200, '/home/ana/src/big');
  const big = logText(bigResultChars, 1);
  const step = (19 * DAY) / entries;
  for (let cycle = 0; b.entryCount + 4 <= entries; cycle++) {
    b.user(`Run the build for package ${cycle % 50} and tell me what failed.`, step);
    b.toolTurn('bash', { command: `npm run build -w pkg-${cycle % 50}` }, cycle % 3 === 0 ? big : logText(1_500, cycle), { details: { exitCode: 0 } });
    b.assistant([{ type: 'text', text: `Package ${cycle % 50}: the build passed; ${cycle % 5} warnings, none new.` }], {}, step);
  }
  while (b.entryCount < entries) b.user('Keep going.', step);
  const file = b.write(dir);
  addIndexEntry(dir, 'agent:main:bench:big', b, file, { chatType: 'direct', lastChannel: 'cli' });
  return { sessionId: b.sessionId, file, entries: b.entryCount, bytes: fs.statSync(file).size };
}

/** Write a ~`bytes` Markdown note at `workspace/memory/big-notes.md`; returns its workspace path. */
export function writeBigMemoryFile(stateDir: string, bytes = 6 * 1024 * 1024): string {
  const rel = 'memory/big-notes.md';
  const parts: string[] = [];
  let n = 0;
  for (let i = 0; n < bytes; i++) {
    const block =
      i % 20 === 0
        ? `\n## Section ${i / 20}\n\n`
        : `- ${i}: decided to keep **item ${i}** in \`src/area${i % 31}/file${i}.ts\`; see [note ${i}](memory/${i}.md) for why.\n`;
    parts.push(block);
    n += block.length;
  }
  const file = path.join(stateDir, 'workspace', rel);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, parts.join(''));
  return rel;
}
