/**
 * The sessions source (SPEC §6, opt-in): a transcript rendered as the user and assistant
 * text only — `User: …` / `Assistant: …` — one logical line per entry, so a chunk's
 * startLine/endLine are JSONL line numbers. Compaction summaries are in too, as
 * `Summary: …`: after a compaction they are the only text left of the old part in the
 * model's context, and often the only place a decision is written down.
 * Thinking, tool calls and tool results are left out; secrets are redacted before anything
 * is indexed. The lines come from the one transcript parser (transcript/parse.ts), so what
 * is indexed is exactly what the sessions view and the context builder read: a line it
 * reports as malformed is skipped here too (it stays in the file).
 */
import type { SourceLine } from './chunker';
import { redactSecrets } from '../util/redact';
import { contentText } from '../../../shared/text/content';
import { parseNumberedLines, parseTranscript } from '../transcript/parse';
import type { Entry, Transcript } from '../transcript/types';

/** A rendered transcript: its lines and the day of its first message (for date context). */
export interface RenderedSession {
  lines: SourceLine[];
  /** YYYY-MM-DD per JSONL line number of rendered lines (from the entry timestamp). */
  dayByLine: Map<number, string>;
}

/** Render the text of a transcript file (`file` names it in the parser's bookkeeping only). */
export function renderSession(jsonl: string, file = 'session.jsonl'): RenderedSession {
  return renderTranscript(parseTranscript(file, jsonl));
}

/**
 * Render transcript lines that carry their own line numbers (`lineNumbers[i]` for
 * `lines[i]`: OpenClaw's SQLite store, where a line is seq + 1).
 */
export function renderSessionLines(file: string, lines: string[], lineNumbers: number[]): RenderedSession {
  return renderTranscript(parseNumberedLines(file, lines, lineNumbers, 0));
}

/** The label and text of an entry that is indexed, or undefined for one that is not. */
function labelled(entry: Entry): { label: string; body: string } | undefined {
  const e = entry as { type: string; summary?: unknown; message?: { role?: unknown; content?: unknown } };
  if (e.type === 'compaction' && typeof e.summary === 'string') return { label: 'Summary', body: e.summary };
  if (e.type !== 'message' || !e.message) return undefined;
  const role = e.message.role;
  if (role !== 'user' && role !== 'assistant') return undefined;
  return { label: role === 'user' ? 'User' : 'Assistant', body: contentText(e.message.content) };
}

/** The indexed line of an entry (`User: …`, redacted, on one line), or undefined for an entry that is not indexed. */
export function renderEntry(entry: Entry): string | undefined {
  const picked = labelled(entry);
  if (!picked) return undefined;
  const text = picked.body.replace(/\s*\n\s*/g, ' ').trim();
  return text ? `${picked.label}: ${redactSecrets(text)}` : undefined;
}

/** The YYYY-MM-DD of an entry's timestamp, if it has one. */
export function entryDay(entry: Entry): string | undefined {
  const ts = (entry as { timestamp?: unknown }).timestamp;
  return typeof ts === 'string' && /^\d{4}-\d{2}-\d{2}/.test(ts) ? ts.slice(0, 10) : undefined;
}

/** Render a parsed transcript's indexed entries. */
export function renderTranscript(t: Transcript): RenderedSession {
  const lines: SourceLine[] = [];
  const dayByLine = new Map<number, string>();
  for (let i = 0; i < t.entries.length; i++) {
    const entry = t.entries[i]!;
    const text = renderEntry(entry);
    if (text === undefined) continue;
    const lineNo = t.entryLines[i]!;
    lines.push({ text, lineNo });
    const day = entryDay(entry);
    if (day !== undefined) dayByLine.set(lineNo, day);
  }
  return { lines, dayByLine };
}
