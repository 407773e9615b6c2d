/**
 * A tool the assistant may call: its spec (name, description, JSON Schema) and how to run
 * it. A tool never throws for bad input or a refused path: it returns an error result the
 * model can read and act on.
 */
import type { ImageBlock, TextBlock } from '../../../../shared/types/messages';
import type { ToolSpec } from '../../llm/types';

export interface ToolOutput {
  content: (TextBlock | ImageBlock)[];
  isError: boolean;
  /** Stored in the transcript, never sent to a model (SPEC §1.1). */
  details?: unknown;
}

export interface Tool {
  spec: ToolSpec;
  run(args: Record<string, unknown>, signal?: AbortSignal): Promise<ToolOutput> | ToolOutput;
}

export const ok = (text: string, details?: unknown): ToolOutput => ({ content: [{ type: 'text', text }], isError: false, ...(details !== undefined ? { details } : {}) });
export const fail = (text: string): ToolOutput => ({ content: [{ type: 'text', text }], isError: true });

/** Read a string argument; undefined when absent, an error message when of the wrong type. */
export function strArg(args: Record<string, unknown>, name: string, required: true): string | { error: string };
export function strArg(args: Record<string, unknown>, name: string, required?: false): string | undefined | { error: string };
export function strArg(args: Record<string, unknown>, name: string, required = false): string | undefined | { error: string } {
  const v = args[name];
  if (v === undefined || v === null) return required ? { error: `missing argument "${name}"` } : undefined;
  if (typeof v !== 'string') return { error: `argument "${name}" must be a string, got ${typeof v}` };
  return v;
}

/** Read a positive integer argument. */
export function intArg(args: Record<string, unknown>, name: string): number | undefined | { error: string } {
  const v = args[name];
  if (v === undefined || v === null) return undefined;
  const n = typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : v;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 0) return { error: `argument "${name}" must be a non-negative integer` };
  return n;
}

export const isErr = (v: unknown): v is { error: string } => typeof v === 'object' && v !== null && 'error' in v;

/** The arguments could not be parsed as JSON (the provider kept the raw text). */
export function invalidJson(args: Record<string, unknown>): ToolOutput | undefined {
  return typeof args._invalidJson === 'string' ? fail(`the arguments were not valid JSON: ${args._invalidJson.slice(0, 200)}`) : undefined;
}
