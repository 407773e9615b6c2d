/**
 * One big generated memory note, for the "200 MB note" peak-RSS figure (docs/benchmarks.md,
 * issue 40): a `## Section N …` heading every 30 lines with a blank line after it (and ~8 %
 * other blank lines), `- ` list items of 6–18 words from a 27-word vocabulary, 2 % CJK
 * sentences and 0.5 % 2,400-char lines. Deterministic (fixed seed). Run:
 * `node --import tsx bench/lib/big-note.ts <out.md> [MB]` (default 200).
 */
import fs from 'node:fs';

const WORDS = 'alpha beta gamma delta memory index chunk vector search note session embed write read cache token model query recall line heading file disk worker stream batch'.split(' ');
const CJK = '記憶の索引は毎日少しずつ大きくなる。';

/** Write about `mb` MB of note text to `out`. */
export function writeBigNote(out: string, mb: number): void {
  let s = 20261205;
  const rand = (): number => ((s = (Math.imul(s, 1103515245) + 12345) >>> 0) / 2 ** 32);
  const word = (): string => WORDS[Math.floor(rand() * WORDS.length)]!;
  const fd = fs.openSync(out, 'w');
  let written = 0;
  let line = 0;
  let section = 0;
  const target = mb * 1024 * 1024;
  try {
    while (written < target) {
      const lines: string[] = [];
      for (let i = 0; i < 2000; i++, line++) {
        const r = rand();
        if (line % 30 === 0) lines.push(`## Section ${++section} ${word()} ${word()}`, '');
        else if (r < 0.08) lines.push('');
        else if (r < 0.1) lines.push(`- ${CJK}${word()}`);
        else if (r < 0.105) lines.push(Array.from({ length: 400 }, word).join(' ').slice(0, 2400));
        else lines.push(`- ${Array.from({ length: 6 + Math.floor(rand() * 13) }, word).join(' ')}`);
      }
      const buf = Buffer.from(lines.join('\n') + '\n');
      fs.writeSync(fd, buf);
      written += buf.length;
    }
  } finally {
    fs.closeSync(fd);
  }
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop()!)) {
  const out = process.argv[2];
  if (!out) throw new Error('usage: big-note.ts <out.md> [MB]');
  writeBigNote(out, Number(process.argv[3] ?? 200));
}
