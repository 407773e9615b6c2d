/**
 * A memory note chunked as it is read (prepare-stream.ts, the path big files take) gives
 * exactly the chunks of the whole-text path (prepare.ts): same lines, text, hashes, headings,
 * dates and bodies, and the same file hash, however the bytes are cut into pieces (a CJK
 * character or a CRLF split between two reads).
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { sha256 } from '../../electron/engine/index/chunker';
import { prepareChunks, type PreparedChunk } from '../../electron/engine/index/prepare';
import { lineParts, prepareChunksStream, type LinePart } from '../../electron/engine/index/prepare-stream';
import { LONG_LINE_CHARS } from '../../electron/engine/index/chunk-context';
import { hashTextFile, readTextPieces } from '../../electron/engine/index/stream-read';
import { tmpDir } from '../helpers/tmp';

const opts = { tokens: 400, overlap: 80 };

/** Deterministic pseudo-random words, headings, blank runs, fences, CJK and long lines. */
function mixed(seed: number, lines: number, eol: string): string {
  let s = seed;
  const rnd = () => (s = (s * 1103515245 + 12345) % 2147483648) / 2147483648;
  const words = ['deploy', 'staging', 'Lisbon', 'ferry', '会议', '预算问题', 'café', '𠀋𠀋', 'notes', 'x'];
  const out: string[] = [];
  for (let i = 0; i < lines; i++) {
    const r = rnd();
    if (r < 0.05) out.push(`${'#'.repeat(1 + Math.floor(rnd() * 3))} Heading ${i} ${words[Math.floor(rnd() * words.length)]}`);
    else if (r < 0.07) out.push(r < 0.06 ? '```sh' : '```');
    else if (r < 0.2) out.push('');
    else if (r < 0.23) out.push(Array.from({ length: 300 + Math.floor(rnd() * 900) }, () => words[Math.floor(rnd() * words.length)]).join(' '));
    else out.push(Array.from({ length: 1 + Math.floor(rnd() * 20) }, () => words[Math.floor(rnd() * words.length)]).join(' '));
  }
  return out.join(eol);
}

const cases: Record<string, string> = {
  'LF with a final newline': `${mixed(1, 150, '\n')}\n`,
  'CRLF with a final newline': `${mixed(2, 150, '\r\n')}\r\n`,
  'no final newline': mixed(3, 150, '\n'),
  'CJK only, long lines': `# 记录\n${'会议记录：我们讨论了部署和预算的问题。'.repeat(300)}\n${'𠀋'.repeat(2000)}`,
  'one line longer than many chunks, no newline': 'word '.repeat(5_000),
  'blank lines only': '\n\n\n\n',
  'a run of blank lines between text': `first\n${'\n'.repeat(5000)}last\n`,
  empty: '',
  'only a newline': '\n',
  'a lone CR line and CR at the end': 'a\r\n\r\n\rb\r',
  'heading inside a fence is not a heading': '# Real\n```\n# fake\n```\nbody line\n'.repeat(200),
  'invalid UTF-8 replaced the same way': '',
};

/** The bytes of a case (the invalid-UTF-8 one is raw bytes). */
function bytesOf(name: string, text: string): Buffer {
  if (name.startsWith('invalid')) return Buffer.concat([Buffer.from('ok line\n'), Buffer.from([0xe4, 0xbc, 0x0a, 0xff, 0xf0, 0x9f, 0x98]), Buffer.from('\nend 会\n'.repeat(400))]);
  return Buffer.from(text, 'utf8');
}

async function collect(gen: AsyncIterable<PreparedChunk>): Promise<PreparedChunk[]> {
  const out: PreparedChunk[] = [];
  for await (const c of gen) out.push(c);
  return out;
}

describe('streamed chunking of a memory note', () => {
  for (const [name, text] of Object.entries(cases)) {
    it(`gives the whole-text chunks and hash: ${name}`, async () => {
      const dir = tmpDir('cairn-stream-');
      const bytes = bytesOf(name, text);
      for (const rel of ['memory/2024-05-08.md', 'MEMORY.md']) {
        const abs = path.join(dir, rel.replace('/', '-'));
        fs.writeFileSync(abs, bytes);
        const file = { abs, path: rel, source: 'memory' as const };
        const whole = bytes.toString('utf8');
        const expected = prepareChunks(file, whole, 1_700_000_000_000, opts);
        for (const pieceBytes of [5, 999, 1 << 20]) {
          const got = await collect(prepareChunksStream(file, readTextPieces(abs, 1 << 30, pieceBytes), 1_700_000_000_000, opts));
          expect(got).toEqual(expected);
        }
        expect(await hashTextFile(abs, 1 << 30)).toBe(sha256(whole));
      }
    }, 60_000);
  }

  // Lines longer than LONG_LINE_CHARS are fed to the chunker in parts as they are read, never held whole.
  const giant: Record<string, string> = {
    'a 2.5 M-char heading line with CRLF, then text': `# Big ${'word '.repeat(500_000)}##\r\nafter the giant line\r\n`,
    'a CJK line of 1.6 M chars, no final newline': `intro\n${'会议记录𠀋'.repeat(320_000)}`,
    'a giant fence opener: the heading inside stays code': `# Real\n\`\`\`${'x'.repeat(1_200_000)}\n# not a heading\n\`\`\`\nbody\n`,
    'a giant line of CRs and text': `${'ab\r'.repeat(400_000)}\r\nnext\r\n`,
  };
  for (const [name, text] of Object.entries(giant)) {
    it(`gives the whole-text chunks for a line too long to hold: ${name}`, async () => {
      expect(text.split('\n').some((l) => l.length > LONG_LINE_CHARS)).toBe(true);
      const abs = path.join(tmpDir('cairn-stream-'), 'note.md');
      fs.writeFileSync(abs, text);
      const file = { abs, path: 'memory/2024-05-08.md', source: 'memory' as const };
      const expected = prepareChunks(file, text, 1_700_000_000_000, opts);
      for (const pieceBytes of [999, 1 << 20]) {
        const got = await collect(prepareChunksStream(file, readTextPieces(abs, 1 << 30, pieceBytes), 1_700_000_000_000, opts));
        expect(got).toEqual(expected);
      }
    }, 120_000);
  }

  it('hands a long line over in parts, a short one whole', async () => {
    async function* pieces() {
      yield 'short\n';
      for (let i = 0; i < 5; i++) yield 'y'.repeat(40);
      yield '\nend';
    }
    const got: LinePart[] = [];
    for await (const p of lineParts(pieces(), 100)) got.push(p);
    expect(got.map((p) => [p.lineNo, p.first, p.end, p.text.length])).toEqual([
      [1, true, true, 5],
      [2, true, false, 120],
      [2, false, true, 80],
      [3, true, true, 3],
    ]);
  });

  it('reads a big note in pieces that stay small strings, even all CJK', async () => {
    // A piece over 128 KiB (as UTF-16) would be a large object of V8's old generation,
    // kept until a full GC: a 200 MB note's peak memory (docs/benchmarks.md, "200 MB note").
    const abs = path.join(tmpDir('cairn-stream-'), 'cjk.md');
    const text = '会议记录：我们讨论了部署和预算的问题。𠀋\n'.repeat(40_000);
    fs.writeFileSync(abs, text);
    const pieces: string[] = [];
    for await (const p of readTextPieces(abs, 1 << 30)) pieces.push(p);
    expect(pieces.join('')).toBe(text);
    expect(pieces.length).toBeGreaterThan(1);
    expect(Math.max(...pieces.map((p) => p.length * 2))).toBeLessThan(128 * 1024);
  });

  it('refuses a file past the cap instead of reading on', async () => {
    const abs = path.join(tmpDir('cairn-stream-'), 'big.md');
    fs.writeFileSync(abs, 'x\n'.repeat(1000));
    await expect(hashTextFile(abs, 100)).rejects.toMatchObject({ code: 'EFBIG' });
  });
});
