// `cairn search` answered by an engine that is already running (`cairn serve`), before the CLI
// loads commander, zod or the engine: the in-process search spends most of its CPU loading
// those and opening SQLite (docs/benchmarks.md, "CLI start-up"). The engine publishes a
// private discovery record next to its token (electron/server/engine-record.ts); this module
// reads it, checks it is still that process serving the same state dir with the same settings
// and version, makes one loopback request to the `search.query` channel, and prints what
// electron/cli/commands/search.ts prints. Anything it is not sure of (a flag it does not know,
// no record, a dead or reused pid, a refused connection, an error answer) returns null, and
// the caller runs the command in-process as always; so does `--json` while the engine holds a
// warning (the in-process --json lists a fresh context's warnings, which may differ).
// CAIRN_THIN=0 turns it off.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { formatResults, statusLine } from './search-format.mjs';

const RECORD = 'serve-engine.json';
const VALUE = { '--state-dir': 'stateDir', '--agent': 'agentId', '-n': 'maxResults', '--max-results': 'maxResults', '--min-score': 'minScore', '--source': 'source', '--since': 'since', '--before': 'before' };
const BOOL = { '--json': 'json', '--explain': 'explain' };

/** `search <query> [options]` with only the options above, each once; else null. */
export function parseSearch(argv) {
  const o = {};
  const positional = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a.startsWith('-')) {
      const key = VALUE[a] ?? BOOL[a];
      if (!key || key in o) return null;
      // Before the command name only --state-dir is a (global) option.
      if (positional.length === 0 && key !== 'stateDir') return null;
      if (BOOL[a]) o[key] = true;
      else {
        const v = argv[++i];
        if (v === undefined || v.startsWith('-')) return null;
        o[key] = v;
      }
    } else positional.push(a);
  }
  if (positional.length !== 2 || positional[0] !== 'search') return null;
  return { query: positional[1], ...o };
}

/** As search.ts's num(): a number, NaN for text (the engine then refuses it). */
const num = (v) => (v === undefined ? undefined : Number.isFinite(Number(v)) ? Number(v) : Number.NaN);

/** Field 22 of /proc/<pid>/stat (start time since boot); null off Linux or when the process is gone. */
function processStart(pid) {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null;
  } catch {
    return null;
  }
}

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Where Cairn keeps its files for `stateDir` (a real path), as engine/config/state-dir.ts and
 * data-dir.ts place them: `<state>/cairn` for a dir it created, else the dir's home in the
 * per-user data dir (sha256 of the real path).
 */
async function cairnDirOf(stateDir, env) {
  if (fs.existsSync(path.join(stateDir, 'cairn', 'state.json'))) return path.join(stateDir, 'cairn');
  const { createHash } = await import('node:crypto');
  const data = env.CAIRN_DATA_DIR ? path.resolve(env.CAIRN_DATA_DIR) : path.join(env.XDG_STATE_HOME || path.join(os.homedir(), '.local', 'state'), 'cairn');
  return path.join(data, 'state-dirs', createHash('sha256').update(stateDir).digest('hex').slice(0, 16));
}

/** The record of the engine serving `stateDir` (a real path) now, from `cairnDir`, or null. */
function liveRecord(stateDir, cairnDir, version) {
  const file = path.join(cairnDir, RECORD);
  let st;
  try {
    st = fs.lstatSync(file);
  } catch {
    return null;
  }
  if (!st.isFile() || (st.mode & 0o077) !== 0 || (process.getuid && st.uid !== process.getuid())) return null;
  let rec;
  try {
    rec = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
  if (rec?.v !== 1 || rec.version !== version || rec.stateDir !== stateDir || !Number.isInteger(rec.pid) || !Number.isInteger(rec.port) || typeof rec.token !== 'string') return null;
  // The same process as wrote it: alive, and not another one that got its pid since.
  if (!rec.start || !alive(rec.pid) || processStart(rec.pid) !== rec.start) return null;
  // Settings edited since the engine loaded them: it would search with the old ones.
  for (const f of [path.join(stateDir, 'openclaw.json'), path.join(stateDir, 'cairn.json'), path.join(cairnDir, 'cairn.json')]) {
    try {
      if (fs.statSync(f).mtimeMs > rec.configAt) return null;
    } catch {
      // Absent: nothing newer.
    }
  }
  return rec;
}

/**
 * One POST of `body` to the engine's `channel`; the parsed answer, or null on any failure.
 * node:http is imported here, not above: loading it costs ~9 ms, which every other command
 * and an in-process search would pay for nothing.
 */
async function call(rec, channel, body) {
  const { default: http } = await import('node:http');
  return new Promise((resolve) => {
    const data = JSON.stringify(body);
    const req = http.request(
      {
        host: '127.0.0.1',
        port: rec.port,
        method: 'POST',
        path: `/api/call/${channel}`,
        agent: false,
        headers: { host: `127.0.0.1:${rec.port}`, authorization: `Bearer ${rec.token}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(data) },
      },
      (res) => {
        const parts = [];
        res.on('data', (c) => parts.push(c));
        res.on('end', () => {
          if (res.statusCode !== 200) return resolve(null);
          try {
            resolve(JSON.parse(Buffer.concat(parts).toString('utf8')));
          } catch {
            resolve(null);
          }
        });
        res.on('error', () => resolve(null));
      },
    );
    req.on('error', () => resolve(null));
    req.end(data);
  });
}

/**
 * Run `argv` (without node and script) against a running engine: the exit code once printed,
 * or null when the caller should run the command itself.
 */
export async function thinSearch(argv, root, env = process.env) {
  if (env.CAIRN_THIN === '0' || argv[0] === undefined) return null;
  const o = parseSearch(argv);
  if (!o) return null;
  const raw = o.stateDir || env.CAIRN_STATE_DIR || path.join(os.homedir(), '.cairn');
  const expanded = raw === '~' ? os.homedir() : raw.startsWith('~/') ? path.join(os.homedir(), raw.slice(2)) : raw;
  let stateDir;
  let version;
  try {
    stateDir = fs.realpathSync(path.resolve(expanded));
    version = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')).version;
  } catch {
    return null;
  }
  const cairnDir = await cairnDirOf(stateDir, env);
  // --json lists the context's own warnings too; an engine's may not be a fresh context's.
  const quiet = (r) => r !== null && (!o.json || (Array.isArray(r.warnings) && r.warnings.length === 0));
  const rec = liveRecord(stateDir, cairnDir, version);
  if (!quiet(rec)) return null;
  const request = { query: o.query, agentId: o.agentId, maxResults: num(o.maxResults), minScore: num(o.minScore), source: o.source, since: o.since, before: o.before, explain: o.explain };
  const answer = await call(rec, 'search.query', { request });
  const res = answer?.ok === true ? answer.value : null;
  if (!res || !Array.isArray(res.results) || typeof res.mode !== 'string' || !Array.isArray(res.warnings)) return null;
  // A warning this search raised is in the record by the time the answer arrives.
  if (o.json && !quiet(liveRecord(stateDir, cairnDir, version))) return null;
  if (o.json) {
    process.stdout.write(`${JSON.stringify({ results: res.results, mode: res.mode, embedder: res.embedder, warnings: res.warnings }, null, 2)}\n`);
    return 0;
  }
  process.stdout.write(`${formatResults(res)}\n`);
  process.stderr.write(`${statusLine(res, `by the running engine, pid ${rec.pid}`)}\n`);
  for (const w of res.warnings) process.stderr.write(`warning: ${w}\n`);
  return 0;
}
