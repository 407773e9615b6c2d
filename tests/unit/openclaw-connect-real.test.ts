/**
 * Cairn's plugin in the real OpenClaw 2026.9.6 (installed by scripts/fetch-test-openclaw.mjs):
 * connect a temp OpenClaw dir, then real `openclaw agent --local` turns with a scripted local
 * model (an OpenAI-wire server in this process). Three turns and one `memory promote` in one
 * test, because each OpenClaw start costs most of a minute:
 *
 * 1. A slow Cairn (the bridge's test delay) is cut off at the recall budget: the turn goes on,
 *    one warning names why, Cairn logs a `timeout`. In the same turn the model calls
 *    OpenClaw's own `memory_search` three times with `corpus=all`: Cairn's results come back
 *    beside memory-core's, and memory-core's recall store counts the recalls (dreaming's
 *    input), as it does without Cairn. The user's message holds a fact for turn 2.
 * 2. A turn whose model calls no tool: its request carries Cairn's hits — a memory note's
 *    fact and turn 1's session fact — with citations, in the `<relevant-memories>` section.
 * 3. Cairn's Node gone: the turn completes without recall, with one warning.
 *
 * The dir starts as the old connect left it (deny list, tool search off, MCP server): connect
 * migrates it, with OpenClaw's own install record of the plugin (`openclaw plugins install
 * --link`, shown in the diff), so no OpenClaw run warns that it "can't verify where this plugin
 * came from"; no file of the OpenClaw dir changes but openclaw.json and OpenClaw's own state;
 * `--undo` removes the record (`openclaw plugins uninstall`) and restores the user's own file
 * byte for byte; the memory files are as they were. A dir connected the plugins.load.paths way
 * without a record gets just the record.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ensureForeignStateHome, foreignStateHome } from '../../electron/engine/config/data-dir';
import type { EngineContext } from '../../electron/engine/core/context';
import { recordConnect, saveBackup, sha256 } from '../../electron/engine/openclaw/backup';
import { connectOpenClaw, openClawConnection } from '../../electron/engine/openclaw/connect';
import { recordedInstallPath } from '../../electron/engine/openclaw/install-record';
import { recallLogPath } from '../../electron/engine/openclaw/recall-log';
import type { OpenClawRecallEntry } from '../../shared/types/openclaw-recall';
import { CAIRN_BIN, runCairn } from '../helpers/cli';
import { contentText, freshOpenClawDir, realOpenClaw, runOpenClaw, scriptedModel, type ChatBody } from '../helpers/openclaw-real';
import { OC2026_STATE_DIR, treeOf } from '../helpers/openclaw-state';
import { tmpDir } from '../helpers/tmp';

const openclaw = realOpenClaw();
const PLUGIN_DIR = path.join(path.dirname(path.dirname(CAIRN_BIN)), 'openclaw-plugin');
const PAUSED_BIN = path.join(__dirname, '..', 'helpers', 'openclaw-bridge-paused.mjs');
const QUERIES = ['Lisbon trip codeword', 'Gamma report budget code', 'favourite fruit quince'];

let closeModel: (() => Promise<void>) | undefined;
afterEach(async () => {
  await closeModel?.();
  closeModel = undefined;
});

/** Files that differ between two trees (added, removed or changed). */
function changed(before: Map<string, string>, after: Map<string, string>): string[] {
  const keys = new Set([...before.keys(), ...after.keys()]);
  return [...keys].filter((k) => before.get(k) !== after.get(k)).sort();
}

/** The text of the user messages of a request (what the model was asked). */
const userText = (r: ChatBody | undefined): string => (r?.messages ?? []).filter((m) => m.role === 'user').map((m) => contentText(m.content)).join('\n');
const systemText = (r: ChatBody | undefined): string => (r?.messages ?? []).filter((m) => m.role === 'system').map((m) => contentText(m.content)).join('\n');

/** The lines of the plugin's warnings in OpenClaw's output. */
const cairnWarnings = (out: string): string[] => out.split('\n').filter((l) => /cairn: .* went on without Cairn/.test(l));

/** OpenClaw's "untracked plugin" warning (its loader's warnAboutUntrackedLoadedPlugins). */
const UNTRACKED = "can't verify where this plugin came from";

/** Files OpenClaw's own `plugins install/uninstall` keep in its dir (its state database, config backups and journal key, empty folders). */
const OPENCLAWS_OWN = /^(state\/|openclaw\.json\.bak|config-journal-fingerprint\.key$|extensions\/|tmp\/)/;

/** The recall log lines of one session. */
function recallLog(file: string): OpenClawRecallEntry[] {
  return fs.existsSync(file) ? fs.readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as OpenClawRecallEntry) : [];
}

describe.skipIf(!openclaw.command)(`Cairn's plugin in the real OpenClaw 2026.9.6${openclaw.skip}`, () => {
  it('recalls before a no-tool turn, reaches memory_search corpus=all, keeps dreaming fed, never fails a turn, and undoes byte for byte', { timeout: 900_000 }, async () => {
    const command = openclaw.command as string;
    const model = await scriptedModel((body) => {
      // (Cairn's section may quote turn 1's message: only the user's own words count.)
      const asked = userText(body).replace(/<relevant-memories>[\s\S]*?<\/relevant-memories>/g, '');
      const answered = body.messages.some((m) => m.role === 'tool');
      // Turn 1 searches with OpenClaw's own tool, through its tool-search wrapper.
      if (asked.includes('SEARCH-THREE') && !answered) return { calls: QUERIES.map((query) => ({ name: 'tool_call', args: { id: 'memory_search', args: { query, corpus: 'all' } } })) };
      return { text: 'Noted.' };
    });
    closeModel = model.close;
    const stateDir = freshOpenClawDir(OC2026_STATE_DIR, model.baseUrl, tmpDir('cairn-ocreal-'));
    const dataDir = tmpDir('cairn-data-');
    const home = tmpDir('cairn-ochome-');
    const cfgFile = path.join(stateDir, 'openclaw.json');
    const original = fs.readFileSync(cfgFile, 'utf8');
    // Cairn's own settings for this dir (in its data dir): index the sessions too.
    fs.writeFileSync(path.join(ensureForeignStateHome(stateDir, { CAIRN_DATA_DIR: dataDir }), 'cairn.json'), JSON.stringify({ agents: { defaults: { memorySearch: { sources: ['memory', 'sessions'] } } } }));
    // Cairn's Node, as a path the test can take away later (turn 3).
    const nodeLink = path.join(tmpDir('cairn-ocnode-'), 'node');
    fs.writeFileSync(nodeLink, `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} "$@"\n`, { mode: 0o755 });
    // The real CLI with one test hook passed in (where the bridge holds a request): turn 1's slow Cairn.
    // `openclaw` records the install (issue 38 defect 10): the real one, with this test's HOME.
    const deps = { env: { CAIRN_DATA_DIR: dataDir, HOME: home, PATH: process.env.PATH }, launch: { node: nodeLink, bin: PAUSED_BIN, pluginDir: PLUGIN_DIR, env: {} }, openclaw: command };

    // The dir as the old connect left it: Cairn's MCP server, OpenClaw's memory tools denied,
    // tool search off — and its backup of the user's file in Cairn's data dir.
    const oldCfg = { ...(JSON.parse(original) as Record<string, unknown>), mcp: { servers: { cairn: { command: process.execPath, args: [CAIRN_BIN, 'mcp', '--state-dir', stateDir], env: { CAIRN_DATA_DIR: dataDir } } } }, tools: { deny: ['memory_search', 'memory_get'], toolSearch: false } };
    const oldText = `${JSON.stringify(oldCfg, null, 2)}\n`;
    saveBackup(stateDir, deps.env, original);
    fs.writeFileSync(cfgFile, oldText);
    recordConnect(stateDir, deps.env, cfgFile, oldText, new Date());

    const before = treeOf(stateDir);
    const dry = await connectOpenClaw(stateDir, { dryRun: true }, deps);
    expect(treeOf(stateDir)).toEqual(before);
    const res = await connectOpenClaw(stateDir, {}, deps);
    expect(res.diff).toBe(dry.diff);
    // Migrated: the deny list, the tool-search switch and the MCP server entry go.
    for (const gone of ['-      "memory_search",', '-    "toolSearch": false', '-  "mcp": {']) expect(res.diff).toContain(gone);
    expect(JSON.parse(fs.readFileSync(cfgFile, 'utf8'))).not.toHaveProperty('tools');
    // OpenClaw's own install record, shown in the diff, and there now.
    expect(dry.diff).toContain(`+  "installPath": ${JSON.stringify(PLUGIN_DIR)}`);
    expect(recordedInstallPath(stateDir)).toBe(PLUGIN_DIR);
    // openclaw.json is exactly the text shown; the rest is what OpenClaw's own command keeps.
    expect(changed(before, treeOf(stateDir)).filter((f) => !OPENCLAWS_OWN.test(f))).toEqual(['openclaw.json']);
    const connectedText = fs.readFileSync(cfgFile, 'utf8');
    const doctor = await runCairn(['doctor', '--json', '--state-dir', stateDir], { env: { CAIRN_DATA_DIR: dataDir, PATH: path.dirname(process.execPath) } });
    expect((JSON.parse(doctor.stdout) as { checks: { id: string; status: string }[] }).checks.find((c) => c.id === 'openclaw-connection')?.status).toBe('ok');
    const memoryFiles = [...before.keys()].filter((k) => (k.startsWith('workspace/memory/') && !k.endsWith('/')) || k === 'workspace/MEMORY.md');
    expect(memoryFiles.length).toBeGreaterThan(1);

    const ocEnv = (extra: Record<string, string>) => ({ PATH: process.env.PATH, HOME: home, OPENCLAW_STATE_DIR: stateDir, NO_COLOR: '1', CAIRN_OPENCLAW_STARTUP_BUDGET_MS: '600000', ...extra });
    const turn = (session: string, message: string, extra: Record<string, string>) => runOpenClaw(command, ['agent', '--local', '--session-id', session, '--message', message], ocEnv(extra));
    // Where Cairn keeps this dir's recall logs (its folder in the data dir).
    const ctxFor = { state: () => ({ cairnDir: foreignStateHome(stateDir, { CAIRN_DATA_DIR: dataDir }) }) } as unknown as EngineContext;
    const logOf = (session: string) => recallLog(recallLogPath(ctxFor, 'main', session));

    // 1. A slow Cairn, cut off at the 300 ms budget; OpenClaw's own memory_search with corpus=all.
    const first = model.requests.length;
    const t1 = await turn('earlier', 'SEARCH-THREE Please remember: my locker code is 4417-heron.', { CAIRN_TEST_BRIDGE_PAUSE: JSON.stringify({ recall: 600_000 }), CAIRN_OPENCLAW_RECALL_BUDGET_MS: '300' });
    expect(t1.code, t1.out.slice(-3000)).toBe(0);
    expect(t1.out).not.toContain(UNTRACKED);
    expect(t1.out).toContain('Noted.');
    expect(cairnWarnings(t1.out)).toEqual([expect.stringContaining('Cairn did not answer recall within 300 ms')]);
    expect(logOf('earlier')).toEqual([expect.objectContaining({ v: 1, outcome: 'timeout', agentId: 'main', sessionId: 'earlier', hits: [], injectedChars: 0 })]);
    const asked1 = model.requests[first];
    expect(userText(asked1)).not.toContain('<relevant-memories>');
    // OpenClaw still offers its own memory tools (behind its tool search, as before connect).
    expect(systemText(asked1)).toContain('memory_search (memory-core)');
    expect(systemText(asked1)).toContain('memory_get (memory-core)');
    const toolResults = model.requests.slice(first).flatMap((r) => r.messages.filter((m) => m.role === 'tool').map((m) => contentText(m.content)));
    expect(toolResults).toHaveLength(QUERIES.length);
    for (const r of toolResults) {
      expect(r).toContain('\\"corpus\\": \\"memory\\"');
      expect(r).toContain('\\"corpus\\": \\"cairn\\"');
    }
    expect(toolResults.join('\n')).toMatch(/\\"citation\\": \\"memory\/2026-12-01\.md#L\d+-L\d+\\"/);
    // memory-core recorded the three recalls, as it does without Cairn (dreaming's deep phase reads them).
    const promote = await runOpenClaw(command, ['memory', 'promote', '--json', '--min-score', '0', '--min-recall-count', '0', '--min-unique-queries', '0'], ocEnv({}));
    expect(promote.code, promote.out.slice(-2000)).toBe(0);
    const candidates = (JSON.parse(promote.out.slice(promote.out.indexOf('{'))) as { candidates: { path: string; recallCount: number; uniqueQueries: number }[] }).candidates;
    expect(candidates.find((c) => c.path === 'memory/2026-12-01.md')).toMatchObject({ recallCount: 3, uniqueQueries: 3 });

    // 2. A turn whose model calls no tool: Cairn's hits are in its request, with citations.
    const second = model.requests.length;
    const t2 = await turn('later', 'What was the Lisbon trip codeword, and what is my locker code?', { CAIRN_OPENCLAW_RECALL_BUDGET_MS: '600000' });
    expect(t2.code, t2.out.slice(-3000)).toBe(0);
    expect(t2.out).not.toContain(UNTRACKED);
    expect(cairnWarnings(t2.out)).toEqual([]);
    // The model called no tool in this turn: what it knew came in with the prompt.
    const turn2 = model.requests.slice(second);
    expect(turn2.some((r) => r.messages.some((m) => m.role === 'tool'))).toBe(false);
    const asked2 = userText(turn2.find((r) => userText(r).includes('what is my locker code?')));
    const section = /<relevant-memories>[\s\S]*<\/relevant-memories>/.exec(asked2)?.[0] ?? '';
    // The lines that answer, each run cited exactly above it (issue 37); the codeword stands in
    // MEMORY.md and the daily note alike and is shown once.
    expect(section).toMatch(/\[(MEMORY\.md|memory\/2026-12-01\.md)#L\d+(-L\d+)?\][^\n]*\n[^\n]*saffron-kite/);
    expect(section).toMatch(/\[sessions\/[^\]]+#L\d+(-L\d+)?\][^\n]*\n[^\n]*4417-heron/);
    const injected = logOf('later');
    expect(injected).toEqual([expect.objectContaining({ outcome: 'injected', injectedChars: section.length, turn: expect.objectContaining({ promptSha256: expect.any(String) }) })]);
    expect(injected[0]?.hits.map((h) => h.citation)).toEqual(expect.arrayContaining([expect.stringMatching(/^(MEMORY\.md|memory\/2026-12-01\.md)#L/), expect.stringMatching(/^sessions\//)]));
    const logFile = recallLogPath(ctxFor, 'main', 'later');
    expect(fs.statSync(logFile).mode & 0o777).toBe(0o600);
    expect(fs.statSync(path.dirname(logFile)).mode & 0o777).toBe(0o700);

    // 3. Cairn's Node gone: the turn completes, without recall, with one warning.
    fs.rmSync(nodeLink);
    const third = model.requests.length;
    const t3 = await turn('gone', 'What was the Lisbon trip codeword?', {});
    expect(t3.code, t3.out.slice(-3000)).toBe(0);
    expect(t3.out).not.toContain(UNTRACKED);
    expect(t3.out).toContain('Noted.');
    expect(cairnWarnings(t3.out)).toEqual([expect.stringContaining('which is not running')]);
    expect(userText(model.requests[third])).not.toContain('<relevant-memories>');

    // The memory files Cairn searched are as they were; --undo restores openclaw.json byte for byte.
    // (The dir holds OpenClaw's own stores and links by now: the memory files are compared.)
    for (const f of memoryFiles) expect(sha256(fs.readFileSync(path.join(stateDir, f), 'utf8')), f).toBe(before.get(f));
    expect(sha256(fs.readFileSync(cfgFile, 'utf8'))).toBe(sha256(connectedText));
    expect((await connectOpenClaw(stateDir, { undo: true }, deps)).changed).toBe(true);
    expect(fs.readFileSync(cfgFile, 'utf8')).toBe(original);
    expect(recordedInstallPath(stateDir)).toBeUndefined();
    // Nothing of Cairn's is left in OpenClaw's dir: what else is there is OpenClaw's own state.
    expect((fs.readdirSync(stateDir, { recursive: true }) as string[]).filter((n) => /cairn/i.test(n))).toEqual([]);
  });

  it('a dir connected the plugins.load.paths way, without an install record, gets just the record; undo takes it away; a symlinked openclaw.json stays a link', { timeout: 300_000 }, async () => {
    const command = openclaw.command as string;
    const stateDir = freshOpenClawDir(OC2026_STATE_DIR, 'http://127.0.0.1:9/v1', tmpDir('cairn-ocrec-'));
    const cfgFile = path.join(stateDir, 'openclaw.json');
    const original = fs.readFileSync(cfgFile, 'utf8');
    // Kept by a dotfile manager: openclaw.json links to the real file, 0640 (OpenClaw's own writer would replace the link and make it 0600).
    const target = path.join(tmpDir('cairn-dotfiles-'), 'openclaw.json');
    fs.renameSync(cfgFile, target);
    fs.chmodSync(target, 0o640);
    fs.symlinkSync(target, cfgFile);
    const linkKept = () => fs.lstatSync(cfgFile).isSymbolicLink() && fs.readlinkSync(cfgFile) === target && (fs.statSync(target).mode & 0o777) === 0o640;
    const env = { CAIRN_DATA_DIR: tmpDir('cairn-data-'), HOME: tmpDir('cairn-ochome-'), PATH: process.env.PATH };
    const launch = { node: process.execPath, bin: CAIRN_BIN, pluginDir: PLUGIN_DIR, env: {} };
    // Connected before OpenClaw's record was used: plugins.load.paths only.
    await connectOpenClaw(stateDir, {}, { env, launch, openclaw: null });
    const connected = fs.readFileSync(cfgFile, 'utf8');
    expect(recordedInstallPath(stateDir)).toBeUndefined();
    // Doctor's check says why OpenClaw warns, and what to do.
    expect(openClawConnection(stateDir)).toMatchObject({ connected: true, detail: expect.stringContaining('OpenClaw has no install record of the plugin') });
    const dry = await connectOpenClaw(stateDir, { dryRun: true }, { env, launch, openclaw: command });
    // Only the record is new: openclaw.json has nothing left to change.
    expect(dry.diff.startsWith(`--- ${path.join(stateDir, 'state', 'openclaw.sqlite')}`)).toBe(true);
    const res = await connectOpenClaw(stateDir, { expectDiffSha256: dry.diffSha256 }, { env, launch, openclaw: command });
    expect(res.message).toContain("with OpenClaw's own install record");
    expect(recordedInstallPath(stateDir)).toBe(PLUGIN_DIR);
    expect(openClawConnection(stateDir).detail).not.toContain('no install record');
    expect(fs.readFileSync(target, 'utf8')).toBe(connected);
    expect(linkKept()).toBe(true);
    const undone = await connectOpenClaw(stateDir, { undo: true }, { env, launch, openclaw: command });
    expect(undone.message).toContain('openclaw plugins uninstall cairn');
    expect(recordedInstallPath(stateDir)).toBeUndefined();
    expect(fs.readFileSync(target, 'utf8')).toBe(original);
    expect(linkKept()).toBe(true);
  });
});
