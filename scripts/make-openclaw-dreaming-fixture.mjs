#!/usr/bin/env node
/**
 * Make tests/fixtures/openclaw-2026.9.6-dreaming: a state dir written by the real OpenClaw
 * 2026.9.6 (scripts/fetch-test-openclaw.mjs) living through four simulated days of memory
 * with a scripted model (scripts/lib/scripted-openclaw-model.mjs):
 *   day 1-3  the person's daily notes; sessions where the model calls OpenClaw's own
 *            memory_search with distinct queries (OpenClaw records the recalls);
 *   day 4    `memory promote --json`, `promote-explain --json`, `memory promote --apply
 *            --limit 1`, then a gateway (cold storage on: day 1's sessions move to
 *            sessions/cold/*.jsonl.zst) and one dreaming sweep forced with `cron run` on the
 *            managed job, whose consolidation the scripted model answers, so MEMORY.md is
 *            rewritten and its previous text kept in plugin state.
 * OpenClaw runs with /home bound to a temp folder (scripts/lib/openclaw-ns.mjs), so every
 * path inside is /home/user/.openclaw and nothing needs rewriting; the clock is simulated
 * with scripts/lib/fake-clock.mjs. Needs Linux user namespaces (`unshare -rm`).
 * The gateway runs on the real clock (its state-lease heartbeat runs in a worker thread, which
 * the simulated clock does not reach, and refuses to start when the two disagree), so the
 * sweep happens "today", the day after day 4: the days are placed relative to today.
 *   node scripts/make-openclaw-dreaming-fixture.mjs [--keep] [--resume <kept run dir>]
 * (--resume continues a kept run after its promote step, e.g. when the gateway failed.)
 */
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { ensureRealOpenClaw } from './fetch-test-openclaw.mjs';
import { canUnshare, runOpenClaw, startOpenClaw } from './lib/openclaw-ns.mjs';
import { startScriptedModel } from './lib/scripted-openclaw-model.mjs';
import { consolidationAnswer, dailyNotes, days, initialMemory, userMd } from './lib/dreaming-fixture-story.mjs';

const dest = path.resolve('tests/fixtures/openclaw-2026.9.6-dreaming');
const keep = process.argv.includes('--keep');
const resumeAt = process.argv.indexOf('--resume');
const resume = resumeAt > 0 ? path.resolve(process.argv[resumeAt + 1] ?? '') : undefined;
const oc = ensureRealOpenClaw();
if (!oc.command) throw new Error(`the real openclaw is not installed: ${oc.skip ?? 'run node scripts/fetch-test-openclaw.mjs'}`);
if (!canUnshare()) throw new Error('this machine does not allow `unshare -rm` (user + mount namespaces): the fixture needs /home/user bound to a temp folder');
const command = oc.command;
const root = resume ?? fs.mkdtempSync(path.join(os.tmpdir(), 'oc-dream-'));
const homeRoot = path.join(root, 'home');
const state = path.join(homeRoot, 'user', '.openclaw');
const ws = path.join(state, 'workspace');
const out = path.join(root, 'outputs');
fs.mkdirSync(path.join(ws, 'memory'), { recursive: true });
fs.mkdirSync(out, { recursive: true });
const log = (s) => console.log(`[fixture] ${s}`);

const model = await startScriptedModel({ logFile: path.join(root, 'model.jsonl'), answer: consolidationAnswer });
const GATEWAY_PORT = 18600 + Math.floor(Math.random() * 300);
const config = {
  models: {
    mode: 'merge',
    providers: {
      fake: {
        baseUrl: model.baseUrl,
        apiKey: 'fake-local-key',
        api: 'openai-completions',
        models: [{ id: 'fake-1', name: 'Fake scripted model', reasoning: false, input: ['text'], cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 }, contextWindow: 40000, maxTokens: 2048 }],
      },
    },
  },
  agents: { defaults: { model: { primary: 'fake/fake-1' }, workspace: '/home/user/.openclaw/workspace' } },
  memory: { search: { sources: ['memory', 'sessions'] } },
  session: { maintenance: { coldStorage: { enabled: true, afterDays: 3 } } },
  gateway: { mode: 'local', port: GATEWAY_PORT, bind: 'loopback', auth: { mode: 'token', token: 'fixture-token' } },
  plugins: { entries: { 'memory-core': { config: { dreaming: { enabled: true, timezone: 'UTC', storage: { mode: 'both' }, phases: { deep: { limit: 1 } } } } } } },
};
fs.writeFileSync(path.join(state, 'openclaw.json'), `${JSON.stringify(config, null, 2)}\n`);
if (!resume) {
  fs.writeFileSync(path.join(ws, 'MEMORY.md'), initialMemory);
  fs.writeFileSync(path.join(ws, 'USER.md'), userMd);
}

/** One openclaw run at the given simulated time; fails loudly with its output. */
async function openclaw(clock, args, { allowFail = false, save } = {}) {
  log(`${clock ?? 'now'} openclaw ${args.join(' ')}`);
  const r = await runOpenClaw({ command, homeRoot, clock, args });
  if (save) fs.writeFileSync(path.join(out, save), r.stdout);
  if (r.code !== 0 && !allowFail) throw new Error(`openclaw ${args.join(' ')} exited ${r.code}\n${r.stdout.slice(-3000)}\n${r.stderr.slice(-3000)}`);
  return r;
}

for (const day of resume ? [] : days) {
  for (const [date, note] of Object.entries(dailyNotes)) {
    if (date <= day.date && !fs.existsSync(path.join(ws, 'memory', `${date}.md`))) fs.writeFileSync(path.join(ws, 'memory', `${date}.md`), note);
  }
  // OpenClaw indexes a new note in the background: index it now, so the day's searches find it.
  await openclaw(`${day.date}T07:00:00Z`, ['memory', 'index', '--agent', 'main']);
  for (const turn of day.turns) await openclaw(turn.at, ['agent', '--local', '--session-id', turn.session, '--message', turn.message]);
}

const d4 = days.at(-1).date;
// The sweep runs on the real clock (see above): candidates older than maxAgeDays (30) would
// be filtered out, so the story's fixed days must be recent.
const late = (Date.now() - Date.parse(`${d4}T00:00:00Z`)) / 86_400_000;
if (late > 25) throw new Error(`the story's last day (${d4}) is ${Math.floor(late)} days ago: move the dates in scripts/lib/dreaming-fixture-story.mjs closer to today`);
if (!resume) {
  await openclaw(`${d4}T08:00:00Z`, ['memory', 'promote', '--json'], { save: 'promote-preview.json' });
  await openclaw(`${d4}T08:02:00Z`, ['memory', 'promote-explain', 'glacier', '--json'], { save: 'promote-explain-glacier.json', allowFail: true });
  await openclaw(`${d4}T08:04:00Z`, ['memory', 'promote', '--apply', '--limit', '1', '--json'], { save: 'promote-apply.json' });
}

// The gateway: cold storage runs at its start; the sweep is the managed cron job, run now.
let gwOut = '';
const gateway = startOpenClaw({ command, homeRoot, clock: undefined, args: ['gateway', 'run', '--port', String(GATEWAY_PORT), '--token', 'fixture-token'], onOutput: (c) => (gwOut += c) });
try {
  const ready = Date.now();
  while (!(await portOpen(GATEWAY_PORT))) {
    if (gateway.child.exitCode !== null) throw new Error(`the gateway exited:\n${gwOut.slice(-3000)}`);
    if (Date.now() - ready > 240_000) throw new Error(`the gateway did not start:\n${gwOut.slice(-3000)}`);
    await new Promise((r) => setTimeout(r, 500));
  }
  const gw = ['--port', String(GATEWAY_PORT), '--token', 'fixture-token'];
  const list = await openclaw(undefined, ['cron', 'list', '--all', '--json', ...gw], { allowFail: true });
  const jobs = JSON.parse(list.stdout.slice(list.stdout.indexOf('{'))).jobs ?? [];
  const job = jobs.find((j) => j.name === 'Memory Dreaming Promotion');
  if (!job) throw new Error(`no managed dreaming job:\n${list.stdout}\n${list.stderr}`);
  await openclaw(undefined, ['cron', 'run', job.id, '--wait', '--wait-timeout', '8m', '--timeout', '600000', ...gw], { save: 'cron-run.json' });
  await openclaw(undefined, ['memory', 'promote', '--json', '--include-promoted'], { save: 'promote-after-sweep.json' });
} finally {
  await gateway.stop();
  fs.writeFileSync(path.join(root, 'gateway.log'), gwOut);
}
// Cold storage: the sweep's session ingestion restored the transcripts it read, so the
// gateway runs once more, now with nothing to read them, until day 1's sessions are archived
// (its check runs at start-up and once a minute).
const cold = startOpenClaw({ command, homeRoot, clock: undefined, args: ['gateway', 'run', '--port', String(GATEWAY_PORT), '--token', 'fixture-token'], onOutput: (c) => (gwOut += c) });
try {
  const agentDb = path.join(state, 'agents', 'main', 'agent', 'openclaw-agent.sqlite');
  const t0 = Date.now();
  for (;;) {
    if (cold.child.exitCode !== null) throw new Error(`the gateway exited:\n${gwOut.slice(-3000)}`);
    const db = new Database(agentDb, { readonly: true, fileMustExist: true });
    const n = db.prepare('SELECT count(*) AS n FROM session_transcript_cold_archives').get().n;
    db.close();
    if (n > 0) break;
    if (Date.now() - t0 > 300_000) throw new Error('no session was moved to cold storage within 5 minutes');
    await new Promise((r) => setTimeout(r, 2000));
  }
} finally {
  await cold.stop();
  fs.appendFileSync(path.join(root, 'gateway.log'), gwOut);
}
await model.close();
log(`model calls: ${model.calls()}; raw run kept in ${root}`);
copyFixture();
if (!keep) fs.rmSync(root, { recursive: true, force: true });

/** Does something accept connections on 127.0.0.1:port? */
function portOpen(port) {
  return new Promise((resolve) => {
    const sock = net.connect(port, '127.0.0.1');
    sock.once('connect', () => {
      sock.destroy();
      resolve(true);
    });
    sock.once('error', () => resolve(false));
  });
}

/** Copy the state dir (checkpointed, without locks, temp files and run traces) into the fixture. */
function copyFixture() {
  // Everything but the README (written by hand) is made anew.
  for (const name of ['state', 'openclaw-output']) fs.rmSync(path.join(dest, name), { recursive: true, force: true });
  // Left out: locks, temp files, logs, the Control UI's asset cache (56 MB, not state) and
  // key files (config-journal-fingerprint.key).
  const skip = (rel) => /(^|\/)tmp(\/|$)|\.lock|-wal$|-shm$|lock\.sqlite$|writer\.sqlite$|openclaw-quarantine|(^|\/)logs(\/|$)|(^|\/)cache(\/|$)|\.key$|(^|\/)\.git(\/|$)/.test(rel);
  const walk = (dir) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const abs = path.join(dir, e.name);
      const rel = path.relative(state, abs);
      if (skip(rel)) continue;
      if (e.isDirectory()) walk(abs);
      else if (e.isFile()) {
        const to = path.join(dest, 'state', rel);
        fs.mkdirSync(path.dirname(to), { recursive: true });
        if (rel.endsWith('.sqlite')) {
          // A consistent single-file copy: VACUUM INTO folds the WAL in.
          const db = new Database(abs, { readonly: true });
          db.exec(`VACUUM INTO '${to.replaceAll("'", "''")}'`);
          db.close();
          slim(to);
        } else fs.copyFileSync(abs, to);
        fs.chmodSync(to, 0o644);
      }
    }
  };
  walk(state);
  // The scripted model's port is this run's: the committed config names the fixture's fixed one.
  for (const name of ['openclaw.json', 'openclaw.json.last-good']) {
    const cfgFile = path.join(dest, 'state', name);
    if (fs.existsSync(cfgFile)) fs.writeFileSync(cfgFile, fs.readFileSync(cfgFile, 'utf8').replaceAll(model.baseUrl, 'http://127.0.0.1:18555/v1'));
  }
  fs.cpSync(out, path.join(dest, 'openclaw-output'), { recursive: true });
}

/** Empty OpenClaw's run traces (Cairn never reads them; the fixture stays small) and its keys. */
function slim(file) {
  const db = new Database(file);
  const has = (t) => db.prepare("SELECT 1 FROM sqlite_master WHERE type='table' AND name=?").get(t);
  // Run traces Cairn never reads, and this machine's device identity and tokens (keys).
  for (const t of ['trajectory_runtime_events', 'diagnostic_events', 'audit_events', 'device_identities', 'device_auth_tokens', 'gateway_origin_device_tokens', 'device_bootstrap_tokens', 'secret_store_entries']) if (has(t)) db.exec(`DELETE FROM ${t}`);
  db.exec('VACUUM');
  db.close();
}
