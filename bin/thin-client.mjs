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
// CAIRN_THIN=0 turns it off. Which state dir, where its record is and whether to trust it are
// the engine's own rules (electron/cli/thin-rules.ts), loaded by the caller (`loadRules`):
// the CLI bundle's build of them, or the TypeScript through tsx when the bundle is stale.
import fs from 'node:fs';
import path from 'node:path';
import { formatResults, statusLine } from './search-format.mjs';

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
 * or null when the caller should run the command itself. `loadRules` imports
 * electron/cli/thin-rules.ts (built or through tsx); it is called only for a search.
 */
export async function thinSearch(argv, root, loadRules, env = process.env) {
  if (env.CAIRN_THIN === '0' || argv[0] === undefined) return null;
  const o = parseSearch(argv);
  if (!o) return null;
  let version;
  let rules;
  try {
    version = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')).version;
    rules = await loadRules();
  } catch {
    return null;
  }
  // --json lists the context's own warnings too; an engine's may not be a fresh context's.
  const quiet = (r) => r !== null && (!o.json || (Array.isArray(r.warnings) && r.warnings.length === 0));
  const found = rules.findServingEngine(o.stateDir, version, env);
  const rec = found?.record ?? null;
  if (!quiet(rec)) return null;
  const request = { query: o.query, agentId: o.agentId, maxResults: num(o.maxResults), minScore: num(o.minScore), source: o.source, since: o.since, before: o.before, explain: o.explain };
  const answer = await call(rec, 'search.query', { request });
  const res = answer?.ok === true ? answer.value : null;
  if (!res || !Array.isArray(res.results) || typeof res.mode !== 'string' || !Array.isArray(res.warnings)) return null;
  // A warning this search raised is in the record by the time the answer arrives.
  if (o.json && !quiet(found.reread())) return null;
  if (o.json) {
    process.stdout.write(`${JSON.stringify({ results: res.results, mode: res.mode, embedder: res.embedder, warnings: res.warnings }, null, 2)}\n`);
    return 0;
  }
  process.stdout.write(`${formatResults(res)}\n`);
  process.stderr.write(`${statusLine(res, `by the running engine, pid ${rec.pid}`)}\n`);
  for (const w of res.warnings) process.stderr.write(`warning: ${w}\n`);
  return 0;
}
