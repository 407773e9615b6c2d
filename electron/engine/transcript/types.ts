/**
 * Entry types of a transcript file (SPEC §1.1, pi session format v3). Every entry is kept as
 * the object JSON.parse produced, so unknown fields ride along untouched; these interfaces
 * only name the fields the engine reads.
 */
import type { ImageBlock, Message, TextBlock } from '../../../shared/types/messages';

/** Line 1 of a transcript. */
export interface SessionHeader {
  type: 'session';
  version: number;
  id: string;
  timestamp: string;
  cwd: string;
  [extra: string]: unknown;
}

export interface EntryBase {
  type: string;
  /** 8 hex digits. */
  id: string;
  parentId: string | null;
  /** ISO time. */
  timestamp: string;
  [extra: string]: unknown;
}

export interface MessageEntry extends EntryBase {
  type: 'message';
  message: Message | { role: string; [extra: string]: unknown };
}

export interface CompactionDetails {
  readFiles?: string[];
  modifiedFiles?: string[];
  /** True when the summary is Cairn's deterministic extract rather than a model summary. */
  extract?: boolean;
  [extra: string]: unknown;
}

export interface CompactionEntry extends EntryBase {
  type: 'compaction';
  summary: string;
  firstKeptEntryId: string;
  tokensBefore: number;
  details?: CompactionDetails;
}

export interface CustomEntry extends EntryBase {
  type: 'custom';
  customType: string;
  data?: unknown;
}

export interface CustomMessageEntry extends EntryBase {
  type: 'custom_message';
  customType: string;
  content: string | (TextBlock | ImageBlock)[];
  display?: boolean;
  details?: unknown;
}

export interface BranchSummaryEntry extends EntryBase {
  type: 'branch_summary';
  summary: string;
  fromId?: string;
}

/** Any entry (known or not). Narrow with the `is*` guards of `entries.ts`. */
export type Entry = EntryBase;

/** A line that did not parse as a v3 entry: reported, skipped on load, never removed. */
export interface MalformedLine {
  file: string;
  /** 1-based line number. */
  line: number;
  error: string;
  /** The start of the line, for the report. */
  preview: string;
}

/** A transcript as read from disk. */
export interface Transcript {
  file: string;
  header: SessionHeader | undefined;
  /** Valid entries in file order (the header excluded). */
  entries: Entry[];
  /** 1-based line number of each entry (parallel to `entries`). */
  entryLines: number[];
  /** Every line's original text (without its "\n"), header and malformed lines included. */
  rawLines: string[];
  /**
   * The line number of each of `rawLines` when they are not 1, 2, 3… (OpenClaw's SQLite
   * store: line = seq + 1, and seq may have gaps); absent for a JSONL file.
   */
  lineNumbers?: number[];
  malformed: MalformedLine[];
  /** False when the last line has no newline (a torn append). */
  endsWithNewline: boolean;
  /** File size in bytes when read. */
  bytes: number;
  /** Index of each entry id in `entries`. */
  byId: Map<string, number>;
}
