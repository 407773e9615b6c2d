/**
 * The compaction audit on what the real OpenClaw 2026.9.6 wrote (issue 32): its one
 * compaction (s1-alpha) read from the SQLite store and from the legacy JSONL export gives the
 * same answer — the NOTE codewords its summary dropped, each cited at the tool result that
 * said them (line = seq + 1 in the store, the JSONL line in the export), the QUARTZ codewords
 * it kept not listed, the flush unknown (OpenClaw leaves no trace of it) — under the config's
 * identifierPolicy "off"; `cairn audit` names it for the whole dir; OpenClaw's dir is unchanged.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../electron/cli/main';
import { createRuntime } from '../../electron/cli/runtime';
import type { SessionAudit, StateAudit } from '../../shared/types/audit';
import { copyOpenClawState } from '../helpers/openclaw-state';
import { tmpDir } from '../helpers/tmp';

const LEGACY = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'openclaw-2026.9.6', 'legacy-export');

async function cli(args: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, createRuntime({ stdout: (s) => (stdout += s), stderr: (s) => (stderr += s), isTTY: false }));
  return { code, stdout, stderr };
}

function legacyState(): string {
  const dir = path.join(tmpDir('cairn-oclegacy-'), '.openclaw');
  fs.cpSync(LEGACY, dir, { recursive: true });
  process.env.CAIRN_DATA_DIR = tmpDir('cairn-data-');
  return dir;
}

function check(a: SessionAudit) {
  expect(a.policy).toBe('off');
  expect(a.compactions).toHaveLength(1);
  const c = a.compactions[0]!;
  expect(c).toMatchObject({ id: 'd96ce721-a35f-42cf-8103-9ec1d47c5fdc', line: 44, tokensBefore: 27_378, tokensAfter: 19_855, origin: 'OpenClaw (fromHook)' });
  const lost = c.lost.identifiers.map((i) => i.value);
  expect(lost).toContain('NOTE-10');
  expect(lost).not.toContain('QUARTZ-10');
  expect(lost.every((v) => /^NOTE-\d+$/.test(v))).toBe(true);
  expect(c.lost.identifiers.find((i) => i.value === 'NOTE-10')?.at).toMatchObject({ line: 20, role: 'toolResult', cite: 'sessions/s1-alpha.jsonl#L20' });
  expect(c.flush.ran).toBeNull();
  return c;
}

describe('compaction audit on OpenClaw 2026.9.6', () => {
  it('reads the one compaction from the SQLite store, cites where each lost codeword was said, and changes nothing', async () => {
    const oc = copyOpenClawState();
    const before = oc.tree();
    const r = await cli(['audit', '--session', 's1-alpha', '--json', '--state-dir', oc.stateDir]);
    expect(r.code).toBe(0);
    const a = JSON.parse(r.stdout) as SessionAudit;
    expect(a.store).toBe('openclaw-sqlite');
    const c = check(a);
    // The flush wrote memory/2026-12-01.md that day: its lines count as flushed.
    expect(c.flush.wrote.some((w) => w.path === 'memory/2026-12-01.md')).toBe(true);
    // The citation is one `cairn get` accepts (it renders user/assistant lines; a tool result's line is named, not shown).
    const got = await cli(['get', c.lost.identifiers[0]!.at.cite, '--state-dir', oc.stateDir]);
    expect(got.code).toBe(0);
    expect(c.lost.identifiers[0]!.at.excerpt).toContain(c.lost.identifiers[0]!.value);
    const all = await cli(['audit', '--json', '--state-dir', oc.stateDir]);
    const s = JSON.parse(all.stdout) as StateAudit;
    expect(s).toMatchObject({ compactions: 1, withLostIdentifiers: 1, last: { sessionId: 's1-alpha' } });
    expect(s.summary).toMatch(/^1 of 1 compaction lost identifiers; the last one lost `NOTE-\d+`/);
    expect(oc.tree()).toEqual(before);
  });

  it('gives the same answer from the legacy JSONL export', async () => {
    const dir = legacyState();
    const r = await cli(['audit', '--session', 's1-alpha', '--json', '--state-dir', dir]);
    expect(r.code).toBe(0);
    const a = JSON.parse(r.stdout) as SessionAudit;
    expect(a.store).toBe('jsonl');
    check(a);
    const text = await cli(['audit', '--state-dir', dir]);
    expect(text.stdout).toContain('s1-alpha  1 compaction');
    expect(text.stdout).toContain('sessions/s1-alpha.jsonl#L20');
  });
});
