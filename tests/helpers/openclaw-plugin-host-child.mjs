// A stand-in for an OpenClaw process, run under OpenClaw's own Node 24 (tests/helpers/openclaw-plugin-host.ts
// starts it): loads Cairn's plugin (openclaw-plugin/index.js) with an object shaped like
// OpenClaw's plugin API, then runs commands read as JSON lines on stdin — a prompt through the
// `before_prompt_build` hook, a corpus search or get through the memory corpus supplement, the
// bridge child killed, this process's and the bridge's RSS and open file descriptors — and
// answers each on stdout. argv[2]: the plugin config (JSON); argv[3]: the plugin's index.js.
import fs from 'node:fs';
import { pathToFileURL } from 'node:url';

const config = JSON.parse(process.argv[2]);
const pluginUrl = pathToFileURL(process.argv[3]).href;
const { encodeLine, readLines } = await import(new URL('wire.js', pluginUrl).href);

/** @type {Map<string, Function>} */
const hooks = new Map();
const warnings = [];
let supplement;
const api = {
  id: 'cairn',
  registrationMode: 'full',
  pluginConfig: config,
  logger: { info: () => {}, debug: () => {}, warn: (m) => warnings.push(m), error: (m) => warnings.push(m) },
  on: (name, handler) => hooks.set(name, handler),
  registerMemoryCorpusSupplement: (s) => (supplement = s),
};
const mod = await import(pluginUrl);
mod.default.register(api);
const bridge = () => [...(globalThis[Symbol.for('cairn.openclaw-plugin.bridges')]?.values() ?? [])][0];

/** RSS (bytes) and open file descriptors of a process, from /proc. */
function usage(pid) {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const rssKb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? NaN);
    return { rss: rssKb * 1024, fds: fs.readdirSync(`/proc/${pid}/fd`).length };
  } catch {
    return null;
  }
}

const commands = {
  node: () => ({ version: process.version }),
  async prompt({ message, sessionId = 's-1', messages = [], agentId = 'main', trigger = 'user' }) {
    const started = performance.now();
    const out = await hooks.get('before_prompt_build')({ prompt: message, currentUserMessage: message, messages }, { agentId, sessionId, sessionKey: `agent:${agentId}:explicit:${sessionId}`, trigger });
    return { context: out?.prependContext ?? null, ms: performance.now() - started };
  },
  /** Any hook, called as OpenClaw calls it; its return value (null for none). */
  hook: async ({ name, event = {}, ctx = {} }) => ({ value: (await hooks.get(name)?.(event, ctx)) ?? null }),
  async search({ query, maxResults, agentId = 'main' }) {
    const started = performance.now();
    return { hits: await supplement.search({ query, maxResults, agentId }), ms: performance.now() - started };
  },
  get: async ({ lookup, fromLine, lineCount, agentId = 'main' }) => ({ result: await supplement.get({ lookup, fromLine, lineCount, agentId }) }),
  warnings: () => ({ warnings }),
  gatewayStart: () => (hooks.get('gateway_start')?.({}, {}), {}),
  ready: () => ({ ready: bridge()?.ready === true }),
  stats: () => {
    const pid = bridge()?.child?.pid;
    return { client: usage(process.pid), bridgePid: pid ?? null, bridge: pid ? usage(pid) : null };
  },
  async kill() {
    const child = bridge()?.child;
    if (!child) return { killed: null };
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
    return { killed: child.pid };
  },
  /** Forget when the last bridge started, as a gateway does after minutes: the next prompt may restart it. */
  forgetStart: () => {
    const b = bridge();
    if (b) b.lastStartAt = 0;
    return {};
  },
};

for await (const line of readLines(process.stdin)) {
  const { id, do: what, ...args } = JSON.parse(line);
  let answer;
  try {
    answer = { id, ok: true, value: await commands[what](args) };
  } catch (err) {
    answer = { id, ok: false, error: `${err?.name}: ${err?.message}` };
  }
  process.stdout.write(encodeLine(answer));
}
hooks.get('gateway_stop')?.({}, {});
