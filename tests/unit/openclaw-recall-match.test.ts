/**
 * Matching recall-log records to the user turns of a transcript (the Sessions view's rule):
 * by the sha256 of the message (nearest in time when a message was sent twice), else by the
 * logged preview within ten minutes, else by time within a minute — one record per turn, and
 * a record with no turn near it is left unmatched rather than pinned on the wrong turn.
 */
import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { RecallRecordView } from '../../shared/contract/openclaw-recall';
import { hashInputs, injectedSections, matchRecalls, type UserTurn } from '../../renderer/src/pages/sessions/recall-match';

const sha = (s: string) => crypto.createHash('sha256').update(s, 'utf8').digest('hex');
const T0 = Date.parse('2026-12-04T10:00:00.000Z');

function turn(entryId: string, text: string, atSec: number): UserTurn {
  return { entryId, text, at: T0 + atSec * 1000, hashes: hashInputs(text).map(sha) };
}

function rec(line: number, prompt: string, atSec: number, over: Partial<RecallRecordView> = {}): RecallRecordView {
  return { line, ts: new Date(T0 + atSec * 1000).toISOString(), agentId: 'main', sessionId: 's', promptPreview: prompt.slice(0, 20), promptSha256: sha(prompt), query: prompt, outcome: 'injected', tookMs: 10, hits: [], injectedChars: 0, ...over };
}

describe('matchRecalls', () => {
  it('pairs a repeated message with the record nearest in time', () => {
    const turns = [turn('u1', 'hello again', 0), turn('u2', 'hello again', 600)];
    const { byEntry, unmatched } = matchRecalls(turns, [rec(1, 'hello again', 599), rec(2, 'hello again', -1)]);
    expect(byEntry.get('u2')).toMatchObject({ by: 'text', record: { line: 1 } });
    expect(byEntry.get('u1')).toMatchObject({ by: 'text', record: { line: 2 } });
    expect(unmatched).toEqual([]);
  });

  it('falls back to the preview (OpenClaw wrapped the message), then to time, and leaves a far record unmatched', () => {
    const turns = [turn('u1', '[Fri 2026-12-04 10:00 UTC] Where is the spare key kept?', 0), turn('u2', 'something else entirely', 120)];
    const records = [rec(1, 'Where is the spare key kept?', -1), rec(2, 'a prompt the transcript spells otherwise', 119.5), rec(3, 'late', 5000)];
    const { byEntry, unmatched } = matchRecalls(turns, records);
    expect(byEntry.get('u1')).toMatchObject({ by: 'preview', record: { line: 1 } });
    expect(byEntry.get('u2')).toMatchObject({ by: 'time', record: { line: 2 } });
    expect(unmatched.map((r) => r.line)).toEqual([3]);
  });

  it('matches a message that kept the injected section in the transcript, by its text without it', () => {
    const text = '<relevant-memories>\n- memory/a.md#L1-L2: the key\n</relevant-memories>\n\nWhere is the key?';
    expect(injectedSections(text)).toHaveLength(1);
    const { byEntry } = matchRecalls([turn('u1', text, 0)], [rec(1, 'Where is the key?', 3000)]);
    expect(byEntry.get('u1')).toMatchObject({ by: 'text' });
  });
});
