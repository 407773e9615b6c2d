/**
 * The real OpenClaw CLI for tests, as installed by scripts/fetch-test-openclaw.mjs (run by
 * `.ci/run` and `npm test`'s pretest) into node_modules/.cache/cairn-openclaw. A test never
 * installs anything: this only finds the wrapper. Locally a missing install skips the
 * real-OpenClaw tests with the reason; under CI=true it fails the file, since CI must run them.
 * Also what those tests drive it with: a scripted model on the OpenAI wire, a runner that
 * waits for `openclaw` to end, and a fresh OpenClaw dir from the shipped fixture.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The private cache (override with CAIRN_OPENCLAW_CACHE); the same default as the fetch script. */
export const OPENCLAW_CACHE = process.env.CAIRN_OPENCLAW_CACHE ?? path.join(repoRoot, 'node_modules', '.cache', 'cairn-openclaw');

/** The wrapper script that runs openclaw under its Node 24, or a skip suffix for the title. */
export function realOpenClaw(): { command: string | null; skip: string } {
  const wrapper = path.join(OPENCLAW_CACHE, 'openclaw.sh');
  if (fs.existsSync(wrapper)) return { command: wrapper, skip: '' };
  const errFile = path.join(OPENCLAW_CACHE, '.last-error');
  const reason = (fs.existsSync(errFile) ? fs.readFileSync(errFile, 'utf8').trim() : '') || `openclaw is not installed in ${OPENCLAW_CACHE}: run node scripts/fetch-test-openclaw.mjs`;
  if (process.env.CI === 'true') throw new Error(`CI needs the real openclaw: ${reason} (.ci/run runs node scripts/fetch-test-openclaw.mjs first)`);
  return { command: null, skip: ` (skipped: ${reason})` };
}

/** A chat-completions request as OpenClaw sends it to the scripted model. */
export interface ChatBody {
  messages: { role: string; content: unknown; tool_call_id?: string }[];
  tools?: { function: { name: string; description?: string } }[];
}

/** What the scripted model answers: text, or tool calls (name + JSON-able arguments). */
export type ScriptedReply = { text: string } | { calls: { name: string; args: unknown }[] };

const chunk = (delta: Record<string, unknown>, finish: string | null = null): string =>
  `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'fake-1', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;

/** The text of a message's content (a string or text blocks). */
export function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((b: { type?: string; text?: string }) => (b?.type === 'text' && typeof b.text === 'string' ? b.text : '')).join('\n');
}

/**
 * A scripted model on the OpenAI wire (streaming chat completions) in this process: `reply`
 * decides each answer from the request; every request is recorded in `requests`.
 */
export async function scriptedModel(
  reply: (body: ChatBody) => ScriptedReply,
  /** Called with each request and its arrival time (ms since the epoch): the benchmarks time turns by it. */
  onRequest?: (body: ChatBody, at: number) => void,
): Promise<{ baseUrl: string; requests: ChatBody[]; close: () => Promise<void> }> {
  const requests: ChatBody[] = [];
  const server = http.createServer((req, res) => {
    const at = Date.now();
    let raw = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (raw += c));
    req.on('end', () => {
      if (!req.url?.endsWith('/chat/completions')) return void res.writeHead(404).end();
      const body = JSON.parse(raw) as ChatBody;
      requests.push(body);
      onRequest?.(body, at);
      const r = reply(body);
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      if ('calls' in r) {
        const calls = r.calls.map((c, i) => ({ index: i, id: `call_${i + 1}`, type: 'function', function: { name: c.name, arguments: JSON.stringify(c.args) } }));
        res.write(chunk({ role: 'assistant', content: null, tool_calls: calls }));
        res.write(chunk({}, 'tool_calls'));
      } else {
        res.write(chunk({ role: 'assistant', content: r.text }));
        res.write(chunk({}, 'stop'));
      }
      res.end('data: [DONE]\n\n');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return { baseUrl: `http://127.0.0.1:${port}/v1`, requests, close: () => new Promise<void>((r) => server.close(() => r())) };
}

/** Run the real openclaw to its end; resolves with its exit code and output (stdout + stderr). */
export function runOpenClaw(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    // A backstop, not a timing assertion: a hung OpenClaw must not outlive the test.
    const kill = setTimeout(() => child.kill('SIGKILL'), 840_000);
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (out += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (out += c));
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(kill);
      resolve({ code, out });
    });
  });
}

/**
 * A fresh OpenClaw dir (`<tmp>/.openclaw`) with the shipped fixture's config and workspace,
 * its model pointed at `baseUrl` (the fixture's session store names another home's paths,
 * which OpenClaw would ask to repair, so it is not copied).
 */
export function freshOpenClawDir(fixtureDir: string, baseUrl: string, parent: string): string {
  const stateDir = path.join(parent, '.openclaw');
  fs.mkdirSync(stateDir);
  fs.cpSync(path.join(fixtureDir, 'workspace'), path.join(stateDir, 'workspace'), { recursive: true });
  const cfg = JSON.parse(fs.readFileSync(path.join(fixtureDir, 'openclaw.json'), 'utf8')) as { models: { providers: { fake: { baseUrl: string } } }; agents: { defaults: { workspace: string } } };
  cfg.models.providers.fake.baseUrl = baseUrl;
  cfg.agents.defaults.workspace = path.join(stateDir, 'workspace');
  fs.writeFileSync(path.join(stateDir, 'openclaw.json'), `${JSON.stringify(cfg, null, 2)}\n`);
  return stateDir;
}
