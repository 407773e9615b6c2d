/**
 * What a session's system prompt weighs, where OpenClaw recorded it. OpenClaw
 * 2026.9 stores a `systemPromptReport` on the session's index entry (sessions.json /
 * `session_nodes.entry_json`): the system prompt's chars — SOUL.md, AGENTS.md, the other
 * bootstrap files and the skills list included — and which workspace files it injected.
 * Those tokens are sent on every call but are in no transcript line, so a context estimate
 * from the transcript alone reads 1.6k where OpenClaw reports 10k. Cairn's own sessions
 * have no report: the figure is then unknown, never guessed.
 */
import type { SessionIndexEntry } from '../transcript/sessions-index';

/** The system prompt as OpenClaw reported it for a session. */
export interface SystemPromptFacts {
  /** Characters of the system prompt. */
  chars: number;
  /** Estimated tokens: ceil(chars / 4), SPEC §2. */
  tokens: number;
  /** Workspace files injected into it (AGENTS.md, SOUL.md, …). */
  files: string[];
}

/** The recorded system prompt of a session, or undefined when none is recorded. */
export function systemPromptFacts(entry: SessionIndexEntry | undefined): SystemPromptFacts | undefined {
  const report = entry?.systemPromptReport as { systemPrompt?: { chars?: unknown }; injectedWorkspaceFiles?: unknown } | undefined;
  const chars = report?.systemPrompt?.chars;
  if (typeof chars !== 'number' || !Number.isFinite(chars) || chars <= 0) return undefined;
  const files = Array.isArray(report?.injectedWorkspaceFiles)
    ? report.injectedWorkspaceFiles.flatMap((f) => {
        const x = f as { name?: unknown; missing?: unknown };
        return typeof x?.name === 'string' && x.missing !== true ? [x.name] : [];
      })
    : [];
  return { chars, tokens: Math.ceil(chars / 4), files };
}

/** The context size OpenClaw itself recorded for the session's last call (`totalTokens`), when fresh. */
export function recordedContextTokens(entry: SessionIndexEntry | undefined): number | undefined {
  const t = entry?.totalTokens;
  if (typeof t !== 'number' || !Number.isFinite(t) || t <= 0) return undefined;
  return entry?.totalTokensFresh === false ? undefined : t;
}
