/**
 * What one `cairn search` costs as a whole process, measured with /usr/bin/time (user + sys
 * CPU, wall, peak RSS), in one run so the machine's load is the same for every side:
 *
 *   - first search on a new state dir (it indexes the notes and loads the static model)
 *     against the next, warm one on the same dir;
 *   - a warm `cairn search` against `qmd search` (the real QMD, scripts/fetch-test-qmd.mjs)
 *     on the same 28 notes, alternated in pairs, and `node -e 0` as the floor;
 *   - then, with a `cairn serve` running on that dir, alternated: `cairn search` answered by
 *     the running engine (bin/thin-client.mjs), the in-process one (CAIRN_THIN=0), `qmd
 *     search` and `node -e 0`; plus the engine's own CPU per search (/proc/<pid>/stat).
 *
 *   node --import tsx bench/cli-start.ts [--reps N] [--cairn path/to/bin/cairn.mjs] [--before path/to/bin/cairn.mjs] [--snapshot]
 *
 * The notes are the first 28 daily notes of bench/eval-data. `--cairn` measures another
 * checkout's CLI (e.g. the previous version) against the same notes; `--before` adds another
 * checkout's CLI to the warm pairs, alternated with this one (before/after in one run).
 * `--snapshot` adds the same search started from a user-land start-up snapshot of the CLI
 * script (bench/lib/cli-snapshot.ts) to the warm pairs (issue 40 item 3).
 * CPU is the child's user + sys from its rusage (bash `times`, to the millisecond).
 */
import { spawn, spawnSync } from 'node:child_process';
import readline from 'node:readline';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildCliSnapshot } from './lib/cli-snapshot';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const argAfter = (name: string): string | undefined => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
const REPS = Number(argAfter('--reps') ?? 7);
const CAIRN = path.resolve(argAfter('--cairn') ?? path.join(root, 'bin', 'cairn.mjs'));
/** Another checkout's CLI (e.g. before a change), alternated with CAIRN in the pairs. */
const BEFORE = argAfter('--before') ? path.resolve(argAfter('--before') as string) : null;
const QUERY = 'router firmware update';
const SNAPSHOT = process.argv.includes('--snapshot');

interface Took {
  cpu: number;
  wall: number;
  rssMb: number;
}

/**
 * Run `cmd` under /usr/bin/time (wall, peak RSS) inside bash, whose `times` gives the
 * command's user + sys CPU from its rusage to the millisecond (/usr/bin/time rounds to 10 ms,
 * too coarse for 0.1 s processes); throws when it fails.
 */
function timed(cmd: string[], env: NodeJS.ProcessEnv = process.env): Took {
  const r = spawnSync('/usr/bin/time', ['-f', 'TIME %U %S %e %M', 'bash', '-c', '"$@" || exit $?; times >&2', 'bash', ...cmd], { encoding: 'utf8', env });
  const m = /TIME ([\d.]+) ([\d.]+) ([\d.]+) (\d+)\s*$/.exec(r.stderr);
  // `times` prints the shell's own CPU, then its children's: "0m0.123s 0m0.012s".
  const kids = /\n(\d+)m([\d.]+)s (\d+)m([\d.]+)s\s*\nTIME/.exec(r.stderr);
  if (r.status !== 0 || !m || !kids) throw new Error(`${cmd.join(' ')} failed (${r.status}): ${r.stderr.slice(-500)}`);
  const cpu = Number(kids[1]) * 60 + Number(kids[2]) + Number(kids[3]) * 60 + Number(kids[4]);
  return { cpu, wall: Number(m[3]), rssMb: Number(m[4]) / 1024 };
}

function notes(): string[] {
  const dir = path.join(root, 'bench', 'eval-data', 'workspace', 'memory');
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.md'))
    .sort()
    .slice(0, 28)
    .map((f) => path.join(dir, f));
}

/** A state dir Cairn created (its marker), holding the notes. */
function cairnStateDir(base: string, files: string[]): string {
  const dir = fs.mkdtempSync(path.join(base, 'state-'));
  fs.mkdirSync(path.join(dir, 'cairn'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'cairn', 'state.json'), '{}');
  fs.mkdirSync(path.join(dir, 'workspace', 'memory'), { recursive: true });
  for (const f of files) fs.copyFileSync(f, path.join(dir, 'workspace', 'memory', path.basename(f)));
  return dir;
}

function qmdCommand(): string | null {
  const r = spawnSync(process.execPath, [path.join(root, 'scripts', 'fetch-test-qmd.mjs'), '--json'], { encoding: 'utf8' });
  const out = r.status === 0 ? (JSON.parse(r.stdout) as { command?: string }) : {};
  return out.command ?? null;
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] as number;
};
const f3 = (x: number) => x.toFixed(3);
const row = (name: string, t: Took[]) => `| ${name} | ${f3(median(t.map((x) => x.cpu)))} | ${f3(median(t.map((x) => x.wall)))} | ${median(t.map((x) => x.rssMb)).toFixed(0)} |`;

/** A `cairn serve` on `dir`, once it listens; `cpu()` is its user+sys CPU so far (s, Linux). */
async function startServe(dir: string, env: NodeJS.ProcessEnv): Promise<{ cpu(): number; stop(): Promise<void> }> {
  const child = spawn(process.execPath, [CAIRN, '--state-dir', dir, 'serve'], { env, stdio: ['ignore', 'pipe', 'inherit'] });
  const lines = readline.createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const first = await lines.next();
  if (first.done || !String(first.value).startsWith('Cairn is serving')) throw new Error('cairn serve did not start');
  child.stdout.resume();
  const tick = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim()) || 100;
  return {
    cpu() {
      const stat = fs.readFileSync(`/proc/${child.pid}/stat`, 'utf8');
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      return (Number(f[11]) + Number(f[12])) / tick;
    },
    stop: () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGINT');
      }),
  };
}

async function main(): Promise<void> {
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-cli-start-'));
  const files = notes();
  const env = { ...process.env, HOME: path.join(base, 'home'), XDG_CACHE_HOME: path.join(base, 'cache'), XDG_CONFIG_HOME: path.join(base, 'config'), XDG_DATA_HOME: path.join(base, 'data') };
  fs.mkdirSync(env.HOME, { recursive: true });
  const search = (dir: string, bin = CAIRN) => [process.execPath, bin, 'search', QUERY, '--state-dir', dir, '--json'];
  const loadBefore = os.loadavg();
  try {
    const first: Took[] = [];
    const warm: Took[] = [];
    let last = '';
    for (let i = 0; i < REPS; i++) {
      const dir = cairnStateDir(base, files);
      first.push(timed(search(dir), env));
      warm.push(timed(search(dir), env));
      last = dir;
    }
    const qmd = qmdCommand();
    const pairs: { cairn: Took[]; before: Took[]; snapshot: Took[]; qmd: Took[]; node: Took[] } = { cairn: [], before: [], snapshot: [], qmd: [], node: [] };
    const blob = SNAPSHOT ? buildCliSnapshot(path.join(path.dirname(CAIRN), '..', 'dist', 'cli', 'bundle'), base) : null;
    if (qmd) {
      const notesDir = path.join(last, 'workspace', 'memory');
      timed([qmd, 'collection', 'add', notesDir, '--name', 'notes'], env);
      timed([qmd, 'update'], env);
    }
    // The other checkout searches a state dir of its own, indexed once by it: on one dir, two
    // checkouts of different index schemas would each rebuild the other's index every time.
    const beforeDir = BEFORE ? cairnStateDir(base, files) : null;
    if (beforeDir) timed(search(beforeDir, BEFORE!), env);
    for (let i = 0; i < REPS; i++) {
      pairs.cairn.push(timed(search(last), env));
      if (beforeDir) pairs.before.push(timed(search(beforeDir, BEFORE!), env));
      if (blob) pairs.snapshot.push(timed([process.execPath, '--snapshot-blob', blob, ...search(last).slice(2)], env));
      if (qmd) pairs.qmd.push(timed([qmd, 'search', QUERY, '--json'], env));
      pairs.node.push(timed([process.execPath, '-e', '0'], env));
    }
    // The same dir with an engine running: the thin client against the in-process search.
    const served: { thin: Took[]; own: Took[]; qmd: Took[]; node: Took[] } = { thin: [], own: [], qmd: [], node: [] };
    const engine = await startServe(last, env);
    let engineCpu = 0;
    try {
      timed(search(last), env); // the engine's first search loads its index and model
      for (let i = 0; i < REPS; i++) {
        const before = engine.cpu();
        served.thin.push(timed(search(last), env));
        engineCpu += engine.cpu() - before;
        served.own.push(timed(search(last), { ...env, CAIRN_THIN: '0' }));
        if (qmd) served.qmd.push(timed([qmd, 'search', QUERY, '--json'], env));
        served.node.push(timed([process.execPath, '-e', '0'], env));
      }
    } finally {
      await engine.stop();
    }
    const loadAfter = os.loadavg();
    console.log(`\`${path.relative(root, CAIRN) || CAIRN}\` on ${files.length} notes, ${REPS} reps, medians; load average ${loadBefore.map((x) => x.toFixed(2)).join(' ')} → ${loadAfter.map((x) => x.toFixed(2)).join(' ')}\n`);
    console.log('| process | CPU user+sys (s) | wall (s) | peak RSS (MB) |\n|---|---|---|---|');
    console.log(row('first `cairn search` on a new state dir', first));
    console.log(row('next `cairn search`, same dir (warm)', warm));
    console.log(row('`cairn search` (warm, paired)', pairs.cairn));
    if (BEFORE) console.log(row(`\`cairn search\` of ${path.relative(root, BEFORE) || BEFORE} (warm, paired)`, pairs.before));
    if (blob) console.log(row('`cairn search` from a start-up snapshot (warm, paired)', pairs.snapshot));
    if (qmd) console.log(row('`qmd search` (paired)', pairs.qmd));
    console.log(row('`node -e 0`', pairs.node));
    const ratio = (a: Took[], b: Took[]) => (median(a.map((x) => x.cpu)) / median(b.map((x) => x.cpu))).toFixed(2);
    console.log(`\nfirst / warm CPU: ${ratio(first, warm)}×${qmd ? `; cairn / qmd CPU: ${ratio(pairs.cairn, pairs.qmd)}×; node -e 0 / qmd: ${ratio(pairs.node, pairs.qmd)}×` : ' (qmd not installed: run scripts/fetch-test-qmd.mjs)'}`);
    if (BEFORE && qmd) console.log(`before / qmd CPU: ${ratio(pairs.before, pairs.qmd)}×; cairn / before: ${ratio(pairs.cairn, pairs.before)}×`);
    if (blob && qmd) console.log(`snapshot / qmd CPU: ${ratio(pairs.snapshot, pairs.qmd)}×; snapshot / code cache: ${ratio(pairs.snapshot, pairs.cairn)}×`);
    console.log('\nWith `cairn serve` running on the same dir, alternated:\n');
    console.log('| process | CPU user+sys (s) | wall (s) | peak RSS (MB) |\n|---|---|---|---|');
    console.log(row('`cairn search`, answered by the running engine', served.thin));
    console.log(row('`cairn search`, in-process (CAIRN_THIN=0)', served.own));
    if (qmd) console.log(row('`qmd search`', served.qmd));
    console.log(row('`node -e 0`', served.node));
    console.log(`\nthe engine's own CPU per answered search: ${f3(engineCpu / REPS)} s (mean, /proc/<pid>/stat)`);
    if (qmd) console.log(`thin / qmd CPU: ${ratio(served.thin, served.qmd)}×; in-process / qmd: ${ratio(served.own, served.qmd)}×; node -e 0 / qmd: ${ratio(served.node, served.qmd)}×`);
  } finally {
    fs.rmSync(base, { recursive: true, force: true });
  }
}

await main();
