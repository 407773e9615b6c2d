/**
 * Chat: the sessions to pick from, the open session's recent history (from the transcript),
 * sending a turn with its steps streamed as `chat.event` (text, tool calls and results,
 * pruning / memory flush / compaction markers), Stop, and whether a model is configured.
 */
import { create } from 'zustand';
import type { ChatEvent } from '../../../shared/types/chat';
import type { LlmStatus } from '../../../shared/types/llm';
import type { EntryView, SessionSummary } from '../../../shared/types/sessions';
import { api } from '../api';
import { entriesToItems, type ChatItem } from './chat-items';
import { num } from '../pages/sessions/format';

export type { ChatItem } from './chat-items';

/** How much of an existing session's tail is shown when it is opened. */
const HISTORY_ENTRIES = 200;

interface ChatState {
  sessions: SessionSummary[];
  sessionsError: string | undefined;
  sessionId: string | undefined;
  items: ChatItem[];
  historyError: string | undefined;
  /** Entries before the shown tail. */
  hiddenEntries: number;
  llm: LlmStatus | undefined;
  sending: boolean;
  sendError: string | undefined;
  loadSessions(): Promise<void>;
  loadLlm(): Promise<void>;
  /** Open a session (undefined = a new chat, created on the first message). */
  open(sessionId: string | undefined): Promise<void>;
  /** Resolves false when the turn failed (a failed command's bubble is removed: it is not in the transcript). */
  send(text: string): Promise<boolean>;
  stop(): void;
}

let sendCtl: AbortController | undefined;
/** The opId of the turn being streamed; its `chat.event`s are applied to the items. */
let liveOpId: string | undefined;
/**
 * Resolvers waiting for a turn's `done` event. Events (SSE or IPC) and the call's reply travel
 * separately, so the reply can arrive before the last events of its turn; the store waits for
 * `done` (bounded) before it stops listening, or those last steps would be dropped.
 */
const doneWaiters = new Map<string, () => void>();
const DONE_GRACE_MS = 3000;
let wired = false;

/**
 * Listen to `chat.event` from the moment the Chat page opens: subscribing only when a turn
 * starts would open the event stream too late and miss the turn's first steps.
 */
export function wireChatEvents(): void {
  if (wired) return;
  wired = true;
  api.on('chat.event', (p) => {
    if (p.opId && p.opId === liveOpId) useChat.setState({ items: applyEvent(useChat.getState().items, p.event) });
    if (p.opId && p.event.kind === 'done') doneWaiters.get(p.opId)?.();
  });
}
let seq = 0;
const nextKey = () => `live-${++seq}`;

/** Apply one streamed step to the item list (returns a new array). */
function applyEvent(items: ChatItem[], ev: ChatEvent): ChatItem[] {
  const last = items[items.length - 1];
  switch (ev.kind) {
    case 'text':
    case 'thinking': {
      const field = ev.kind === 'text' ? 'text' : 'thinking';
      if (last?.kind === 'assistant' && last.live) return [...items.slice(0, -1), { ...last, [field]: last[field] + ev.delta }];
      return [...items, { kind: 'assistant', key: nextKey(), text: ev.kind === 'text' ? ev.delta : '', thinking: ev.kind === 'thinking' ? ev.delta : '', live: true }];
    }
    case 'toolCall':
      return [...items, { kind: 'toolCall', key: nextKey(), id: ev.id, name: ev.name, args: ev.arguments }];
    case 'toolResult':
      return [...items, { kind: 'toolResult', key: nextKey(), id: ev.id, name: ev.name, isError: ev.isError, text: ev.preview }];
    case 'assistant':
      // One model reply is complete: the next text starts a new bubble.
      return items.map((it) => (it.kind === 'assistant' && it.live ? { ...it, live: false } : it));
    case 'pruning':
      return [
        ...items,
        {
          kind: 'marker',
          key: nextKey(),
          marker: 'pruning',
          text: `Pruning: ${ev.softTrimmed} tool result${ev.softTrimmed === 1 ? '' : 's'} trimmed, ${ev.cleared} cleared (${num(ev.charsSaved)} chars saved; context ratio ${ev.ratioBefore.toFixed(2)} → ${ev.ratioAfter.toFixed(2)}). The file is unchanged.`,
        },
      ];
    case 'flush':
      if (ev.warning) return [...items, { kind: 'marker', key: nextKey(), marker: 'flush', text: `Warning: ${ev.warning}` }];
      if (!ev.ran) return items;
      return [...items, { kind: 'marker', key: nextKey(), marker: 'flush', text: `Memory flush: ${ev.wrote.length ? `wrote ${ev.wrote.join(', ')}` : 'nothing new to store'}. ${ev.reason}` }];
    case 'compaction':
      return [
        ...items,
        {
          kind: 'marker',
          key: nextKey(),
          marker: 'compaction',
          text: ev.compacted
            ? `Compaction (${ev.trigger}): ${ev.tokensBefore !== undefined ? num(ev.tokensBefore) : '?'} → ${ev.tokensAfter !== undefined ? num(ev.tokensAfter) : '?'} tokens${ev.extract ? ', deterministic extract (no model)' : ''}.`
            : `Compaction (${ev.trigger}) not done: ${ev.reason ?? 'nothing to compact'}.`,
        },
      ];
    case 'retry':
      return [...items, { kind: 'marker', key: nextKey(), marker: 'retry', text: `Retrying: ${ev.reason}` }];
    case 'turnStart':
    case 'done':
      return items;
  }
}

export const useChat = create<ChatState>((set, get) => ({
  sessions: [],
  sessionsError: undefined,
  sessionId: undefined,
  items: [],
  historyError: undefined,
  hiddenEntries: 0,
  llm: undefined,
  sending: false,
  sendError: undefined,
  async loadSessions() {
    try {
      const res = await api['sessions.list']({});
      const sessions = [...res.sessions].sort((a, b) => (b.lastActivity ?? '').localeCompare(a.lastActivity ?? ''));
      set({ sessions, sessionsError: undefined });
    } catch (err) {
      set({ sessionsError: (err as Error).message });
    }
  },
  async loadLlm() {
    try {
      set({ llm: await api['llm.status']({}) });
    } catch {
      set({ llm: undefined });
    }
  },
  async open(sessionId) {
    if (get().sending) return;
    set({ sessionId, items: [], historyError: undefined, hiddenEntries: 0, sendError: undefined });
    if (!sessionId) return;
    try {
      const head = await api['sessions.entries']({ sessionId, offset: 0, limit: 1 });
      const offset = Math.max(0, head.total - HISTORY_ENTRIES);
      const page = offset === 0 && head.total <= 1 ? head : await api['sessions.entries']({ sessionId, offset, limit: HISTORY_ENTRIES });
      if (get().sessionId !== sessionId) return;
      const onBranch: EntryView[] = page.entries.filter((e) => e.onBranch);
      set({ items: entriesToItems(onBranch), hiddenEntries: offset });
    } catch (err) {
      set({ historyError: (err as Error).message });
    }
  },
  async send(text) {
    const t = text.trim();
    if (!t || get().sending) return false;
    const ctl = new AbortController();
    sendCtl = ctl;
    const opId = globalThis.crypto.randomUUID();
    const start = get().items.length + 1;
    const userKey = nextKey();
    set({ sending: true, sendError: undefined, items: [...get().items, { kind: 'user', key: userKey, text: t }] });
    liveOpId = opId;
    const doneSeen = new Promise<void>((resolve) => doneWaiters.set(opId, resolve));
    try {
      const res = await api['chat.send']({ text: t, ...(get().sessionId ? { sessionId: get().sessionId } : {}) }, { signal: ctl.signal, opId });
      await Promise.race([doneSeen, new Promise<void>((resolve) => setTimeout(resolve, DONE_GRACE_MS))]);
      const items = get().items.map((it) => (it.kind === 'assistant' && it.live ? { ...it, live: false } : it));
      // A reply that was not streamed (e.g. a provider without deltas) still shows.
      const streamed = items.slice(start).some((it) => it.kind === 'assistant' && it.text.trim() !== '');
      if (res.reply && !streamed) items.push({ kind: 'assistant', key: nextKey(), text: res.reply, thinking: '', live: false });
      set({ items, sessionId: res.sessionId });
      void get().loadSessions();
      return true;
    } catch (err) {
      const e = err as Error & { code?: string };
      const command = t.startsWith('/');
      set({ sendError: e.code === 'cancelled' ? 'Stopped.' : e.message, ...(command ? { items: get().items.filter((it) => it.key !== userKey) } : {}) });
      return false;
    } finally {
      doneWaiters.delete(opId);
      if (liveOpId === opId) liveOpId = undefined;
      if (sendCtl === ctl) sendCtl = undefined;
      set({ sending: false });
    }
  },
  stop() {
    sendCtl?.abort();
  },
}));
