/**
 * Every config change Cairn suggests to a user, in one enumerable list, and the text that
 * names it. A message, hint or doctor check that tells a person to set a key takes its words
 * from here, so a test can run each suggestion through OpenClaw's own validator
 * (tests/unit/config-suggestions-openclaw.test.ts): a key OpenClaw also reads must be one
 * OpenClaw 2026.9 accepts, at today's path; a Cairn-only key is said to belong in cairn.json
 * (OpenClaw never reads that file, so it cannot break OpenClaw).
 */
import { MEMORY_SEARCH_KEY } from './legacy-keys';

/** Where the suggested key is read: by OpenClaw too (`openclaw`), or by Cairn only (`cairn`). */
export type SuggestionScope = 'openclaw' | 'cairn';

/** One suggested setting: its key path at today's name and an example value. */
export interface ConfigSuggestion {
  keyPath: string;
  /** The value the message suggests (or an example of one, for a path). */
  value: unknown;
  scope: SuggestionScope;
}

const S = MEMORY_SEARCH_KEY;

/** Every suggestion Cairn can print, by id. */
export const CONFIG_SUGGESTIONS = {
  sessionsSource: { keyPath: `${S}.sources`, value: ['memory', 'sessions'], scope: 'openclaw' },
  localEmbedder: { keyPath: `${S}.provider`, value: 'local', scope: 'openclaw' },
  localModelPath: { keyPath: `${S}.local.modelPath`, value: '/path/to/embedding-model.gguf', scope: 'openclaw' },
  remoteApiKey: { keyPath: `${S}.remote.apiKey`, value: 'sk-your-key', scope: 'openclaw' },
  staticFallback: { keyPath: `${S}.fallback`, value: 'static', scope: 'cairn' },
  workspace: { keyPath: 'agents.defaults.workspace', value: '~/.openclaw/workspace', scope: 'openclaw' },
  agentWorkspace: { keyPath: 'agents.entries.main.workspace', value: '~/.openclaw/workspace', scope: 'openclaw' },
  qmdCommand: { keyPath: 'memory.qmd.command', value: '/usr/local/bin/qmd', scope: 'cairn' },
} as const satisfies Record<string, ConfigSuggestion>;

export type SuggestionId = keyof typeof CONFIG_SUGGESTIONS;

const key = (id: SuggestionId): string => CONFIG_SUGGESTIONS[id].keyPath;

function workspaceText(): string {
  return `Set ${key('workspace')} (or the agent's ${key('agentWorkspace').replace('.main.', '.<id>.')}) in openclaw.json or cairn.json to the folder that holds MEMORY.md and memory/.`;
}

/** The printed texts, each built from the list above (what the test reads back). */
export const SUGGESTION_TEXT = {
  sessionsSource: () => `the sessions source is off (${key('sessionsSource')}): set it to ["memory", "sessions"] to search transcripts`,
  localEmbedder: () =>
    `Set ${key('localEmbedder')} to "local" (with a downloaded model) for semantic search, or remove the key from cairn.json so that Cairn picks an embedder itself.`,
  localModelPath: (modelsDir: string) => `copy a .gguf embedding model into ${modelsDir} and set ${key('localModelPath')} to it`,
  remoteApiKey: () => `set ${key('remoteApiKey')}`,
  staticFallback: () =>
    `Fix the named setting, or set ${key('staticFallback')} to "static" in cairn.json (Cairn's offline embeddings; OpenClaw does not read cairn.json).`,
  workspace: () => workspaceText(),
  agentWorkspace: () => workspaceText(),
  qmdCommand: () =>
    `Install QMD (npm install -g @tobilu/qmd; it needs Node ≥ 22) or set ${key('qmdCommand')} to its path in cairn.json. Until then searches use the built-in index.`,
} satisfies Record<SuggestionId, (...args: string[]) => string>;
