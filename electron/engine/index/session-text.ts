/**
 * The sessions source (SPEC §6, opt-in): a transcript JSONL file rendered as the user and
 * assistant text only — `User: …` / `Assistant: …` — one logical line per JSONL line, so a
 * chunk's startLine/endLine are JSONL line numbers. Compaction summaries are in too, as
 * `Summary: …`: after a compaction they are the only text left of the old part in the
 * model's context, and often the only place a decision is written down.
 * Thinking, tool calls and tool results are left out; secrets are redacted before anything
 * is indexed.
 */
import type { SourceLine } from './chunker';
import { redactSecrets } from '../util/redact';
import { contentText } from '../../../shared/text/content';

const textOf = (content: unknown): string => contentText(content);

/** A rendered transcript: its lines and the day of its first message (for date context). */
export interface RenderedSession {
  lines: SourceLine[];
  /** YYYY-MM-DD per JSONL line number of rendered lines (from the entry timestamp). */
  dayByLine: Map<number, string>;
}

/** Render a transcript's text; lines that do not parse are skipped (they stay in the file). */
export function renderSession(jsonl: string): RenderedSession {
  return renderSessionLines(jsonl.split('\n'));
}

/**
 * Render transcript lines; `lineNumbers[i]` is the line of `raw[i]` when they are not
 * numbered 1, 2, 3… (OpenClaw's SQLite store, where a line is seq + 1).
 */
export function renderSessionLines(raw: readonly string[], lineNumbers?: readonly number[]): RenderedSession {
  const lines: SourceLine[] = [];
  const dayByLine = new Map<number, string>();
  for (let i = 0; i < raw.length; i++) {
    const line = raw[i]!.trim();
    if (!line.startsWith('{')) continue;
    let entry: { type?: string; timestamp?: unknown; summary?: unknown; message?: { role?: string; content?: unknown; timestamp?: unknown } };
    try {
      entry = JSON.parse(line);
    } catch {
      continue;
    }
    let label: string;
    let body: string;
    if (entry.type === 'compaction' && typeof entry.summary === 'string') {
      label = 'Summary';
      body = entry.summary;
    } else {
      if (entry.type !== 'message' || !entry.message) continue;
      const role = entry.message.role;
      if (role !== 'user' && role !== 'assistant') continue;
      label = role === 'user' ? 'User' : 'Assistant';
      body = textOf(entry.message.content);
    }
    const text = body.replace(/\s*\n\s*/g, ' ').trim();
    if (!text) continue;
    const lineNo = lineNumbers ? (lineNumbers[i] ?? i + 1) : i + 1;
    lines.push({ text: `${label}: ${redactSecrets(text)}`, lineNo });
    const ts = typeof entry.timestamp === 'string' ? entry.timestamp : undefined;
    if (ts && /^\d{4}-\d{2}-\d{2}/.test(ts)) dayByLine.set(lineNo, ts.slice(0, 10));
  }
  return { lines, dayByLine };
}
