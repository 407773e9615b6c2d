/** Type guards and small helpers over transcript entries. */
import type {
  BranchSummaryEntry,
  CompactionEntry,
  CustomEntry,
  CustomMessageEntry,
  Entry,
  MessageEntry,
} from './types';

export const isMessageEntry = (e: Entry): e is MessageEntry =>
  e.type === 'message' && typeof e.message === 'object' && e.message !== null;

export const isCompactionEntry = (e: Entry): e is CompactionEntry =>
  e.type === 'compaction' && typeof e.summary === 'string';

export const isCustomEntry = (e: Entry): e is CustomEntry => e.type === 'custom' && typeof e.customType === 'string';

export const isCustomMessageEntry = (e: Entry): e is CustomMessageEntry => e.type === 'custom_message';

export const isBranchSummaryEntry = (e: Entry): e is BranchSummaryEntry =>
  e.type === 'branch_summary' && typeof e.summary === 'string';
