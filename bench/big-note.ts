/**
 * Peak RSS of indexing one big generated memory note (issue 40 item 4; docs/benchmarks.md,
 * "200 MB note"): for each run, a fresh state dir made with `--init` and indexed once
 * (MEMORY.md only), then the note copied to `workspace/memory/big.md` and
 * `/usr/bin/time -v node bin/cairn.mjs --state-dir <dir> index --force --json` timed — a
 * rebuild that embeds every chunk (no cached vectors). Several checkouts are run
 * interleaved, so before and after see the same load. Prints a Markdown table.
 *
 * `node --import tsx bench/big-note.ts [MB=200] [--runs N=1] [--tree <checkout>]...`
 * (default tree: this one). The note (deterministic, fixed seed): a `## Section N …` heading
 * every 30 lines with a blank line after it (and ~8 % other blank lines), `- ` list items of
 * 6–18 words from a 27-word vocabulary, 2 % CJK items, 0.5 % 2,400-char lines; written once
 * to `os.tmpdir()/cairn-big-note/` and reused.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const WORDS = 'alpha beta gamma delta memory index chunk vector search note session embed write read cache token model query recall line heading file disk worker stream batch'.split(' ');
const CJK = '記憶の索引は毎日少しずつ大きくなる。';

/** Write about `mb` MiB of note text to `out`. */
function writeBigNote(out: string, mb: number): void {
  let s = 20261205;
  const rand = (): number => (s = (Math.imul(s, 1103515245) + 12345) >>> 0) / 2 ** 32;
  const word = (): string => WORDS[Math.floor(rand() * WORDS.length)]!;
  const fd = fs.openSync(out, 'w');
  let written = 0;
  let line = 0;
  let section = 0;
  try {
    while (written < mb * 1024 * 1024) {
      const lines: string[] = [];
      for (let i = 0; i < 2000; i++, line++) {
        const r = rand();
        if (line % 30 === 0) lines.push(`## Section ${++section} ${word()} ${word()}`, '');
        else if (r < 0.08) lines.push('');
        else if (r < 0.1) lines.push(`- ${CJK}${word()}`);
        else if (r < 0.105) lines.push(Array.from({ length: 400 }, word).join(' ').slice(0, 2400));
        else lines.push(`- ${Array.from({ length: 6 + Math.floor(rand() * 13) }, word).join(' ')}`);
      }
      written += fs.writeSync(fd, `${lines.join('\n')}\n`);
    }
  } finally {
    fs.closeSync(fd);
  }
}

/** `/usr/bin/time -v`'s value for `label`. */
const timeField = (out: string, label: string): string => out.split('\n').find((l) => l.includes(label))?.split(': ').pop()?.trim() ?? '?';
const load = (): string => fs.readFileSync('/proc/loadavg', 'utf8').split(' ')[0]!;

/** One timed rebuild of `tree`'s CLI over a fresh state dir holding `note`. */
function run(tree: string, note: string, dir: string): string {
  fs.rmSync(dir, { recursive: true, force: true });
  const cli = path.join(tree, 'bin', 'cairn.mjs');
  execFileSync('node', [cli, '--state-dir', dir, '--init', 'index', '--json'], { cwd: tree, stdio: 'ignore' });
  fs.copyFileSync(note, path.join(dir, 'workspace', 'memory', 'big.md'));
  const before = load();
  const started = new Date().toISOString().slice(11, 16);
  const r = spawnSync('/usr/bin/time', ['-v', 'node', cli, '--state-dir', dir, 'index', '--force', '--json'], { cwd: tree, encoding: 'utf8', maxBuffer: 1 << 24 });
  if (r.status !== 0) throw new Error(`index failed in ${tree}: ${r.stderr.slice(-2000)}`);
  const chunks = (JSON.parse(r.stdout) as { chunks: number }).chunks;
  const rssMb = Math.round(Number(timeField(r.stderr, 'Maximum resident set size')) / 1024);
  fs.rmSync(dir, { recursive: true, force: true });
  return `| ${path.basename(tree)} | **${rssMb} MB** | ${timeField(r.stderr, 'Elapsed')} / ${timeField(r.stderr, 'User time')} s (+${timeField(r.stderr, 'System time')} s sys) | ${chunks} | ${before} → ${load()} | ${started} |`;
}

function main(): void {
  const args = process.argv.slice(2);
  const trees: string[] = [];
  let runs = 1;
  let mb = 200;
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--tree') trees.push(path.resolve(args[++i]!));
    else if (args[i] === '--runs') runs = Number(args[++i]);
    else mb = Number(args[i]);
  }
  if (trees.length === 0) trees.push(path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..'));
  const work = path.join(os.tmpdir(), 'cairn-big-note');
  fs.mkdirSync(work, { recursive: true });
  const note = path.join(work, `big-${mb}.md`);
  if (!fs.existsSync(note)) writeBigNote(note, mb);
  console.log(`| tree | peak RSS | wall / user CPU | chunks | load | time (UTC) |\n|---|---|---|---|---|---|`);
  for (let i = 0; i < runs; i++) for (const tree of trees) console.log(run(tree, note, path.join(work, 'state')));
}

main();
