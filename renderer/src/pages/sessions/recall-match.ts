/**
 * Which user turn of a session each record of Cairn's recall log belongs to. The plugin logs
 * the sha256 of the prompt it searched for, its start and the time; the transcript has the
 * user's message and its time. A record goes to the turn whose text hashes the same (the
 * nearest in time when a message was sent twice), else to the turn that starts with its
 * preview within ten minutes, else to the nearest turn within a minute — one record per turn,
 * and `by` says how, so the view can say when a match is only by time. Pure: no DOM, no I/O.
 */
import type { RecallRecordView } from '../../../../shared/contract/openclaw-recall';

/** A user turn of the transcript, as the matcher needs it. */
export interface UserTurn {
  entryId: string;
  /** The message's text (text blocks joined). */
  text: string;
  /** ms since the epoch, when the entry has a time. */
  at: number | undefined;
  /** sha256 (hex) of `text`, and of `text` without an injected `<relevant-memories>` section, trimmed. */
  hashes: string[];
}

export interface TurnRecall {
  record: RecallRecordView;
  by: 'text' | 'preview' | 'time';
}

const PREVIEW_WINDOW_MS = 10 * 60_000;
const TIME_WINDOW_MS = 60_000;

const RELEVANT = /<relevant[-_]memories>[\s\S]*?<\/relevant[-_]memories>/gi;

/** The `<relevant-memories>` sections OpenClaw kept inside a user message (usually none: it adds them for the model only). */
export function injectedSections(text: string): string[] {
  return text.match(RELEVANT) ?? [];
}

/** The texts whose sha256 may be the prompt's: as written, and without an injected section, trimmed. */
export function hashInputs(text: string): string[] {
  const bare = text.replace(RELEVANT, '').trim();
  return bare === text ? [text] : [text, bare];
}

function norm(s: string): string {
  return s.replace(RELEVANT, '').replace(/\s+/g, ' ').trim().toLowerCase();
}

function nearest(turns: UserTurn[], at: number): UserTurn | undefined {
  let best: UserTurn | undefined;
  let bestD = Infinity;
  for (const t of turns) {
    const d = t.at === undefined ? Number.MAX_SAFE_INTEGER : Math.abs(t.at - at);
    if (d < bestD) {
      best = t;
      bestD = d;
    }
  }
  return best;
}

/** Map entry id → the recall of that turn; plus the records no turn was found for. */
export function matchRecalls(turns: UserTurn[], records: RecallRecordView[]): { byEntry: Map<string, TurnRecall>; unmatched: RecallRecordView[] } {
  const byEntry = new Map<string, TurnRecall>();
  const free = () => turns.filter((t) => !byEntry.has(t.entryId));
  let left: RecallRecordView[] = [];
  const timeOf = (r: RecallRecordView) => Date.parse(r.ts);
  for (const r of records) {
    const t = nearest(
      free().filter((u) => u.hashes.includes(r.promptSha256)),
      timeOf(r),
    );
    if (t) byEntry.set(t.entryId, { record: r, by: 'text' });
    else left.push(r);
  }
  const pass = (rs: RecallRecordView[], by: 'preview' | 'time', window: number, fits: (u: UserTurn, r: RecallRecordView) => boolean) => {
    const rest: RecallRecordView[] = [];
    for (const r of rs) {
      const at = timeOf(r);
      const t = nearest(
        free().filter((u) => u.at !== undefined && Number.isFinite(at) && Math.abs(u.at - at) <= window && fits(u, r)),
        at,
      );
      if (t) byEntry.set(t.entryId, { record: r, by });
      else rest.push(r);
    }
    return rest;
  };
  left = pass(left, 'preview', PREVIEW_WINDOW_MS, (u, r) => {
    const p = norm(r.promptPreview).replace(/(…|\.\.\.)$/, '').trim();
    return p.length > 0 && norm(u.text).includes(p);
  });
  left = pass(left, 'time', TIME_WINDOW_MS, () => true);
  return { byEntry, unmatched: left };
}
