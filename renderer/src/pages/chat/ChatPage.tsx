/**
 * Chat with the offline assistant: pick a session or start a new one, send a message (Enter;
 * Shift+Enter for a new line), watch the reply stream with tool calls and results inline and
 * markers when pruning, a memory flush or a compaction happened; `/compact [instructions]`
 * compacts. Without a model, a clear state that links to Settings.
 */
import { useEffect, useRef, useState } from 'react';
import { useApp } from '../../stores/app';
import { useChat, wireChatEvents } from '../../stores/chat';
import { ChatItemView } from './ChatItemView';
import './chat.css';

function label(s: { id: string; name: string | undefined; key: string | undefined }): string {
  return s.name ?? s.key ?? s.id;
}

export function ChatPage() {
  const sessions = useChat((s) => s.sessions);
  const sessionsError = useChat((s) => s.sessionsError);
  const sessionId = useChat((s) => s.sessionId);
  const items = useChat((s) => s.items);
  const historyError = useChat((s) => s.historyError);
  const hidden = useChat((s) => s.hiddenEntries);
  const llm = useChat((s) => s.llm);
  const sending = useChat((s) => s.sending);
  const sendError = useChat((s) => s.sendError);
  const { loadSessions, loadLlm, open, send, stop } = useChat.getState();
  const go = useApp((s) => s.go);
  const [text, setText] = useState('');
  const endRef = useRef<HTMLDivElement>(null);
  const inputRef = useRef<HTMLTextAreaElement>(null);

  useEffect(() => {
    wireChatEvents();
    void loadSessions();
    void loadLlm();
  }, [loadSessions, loadLlm]);
  useEffect(() => {
    endRef.current?.scrollIntoView({ block: 'end' });
  }, [items]);

  const noModel = llm !== undefined && !llm.configured;
  const isCommand = text.trim().startsWith('/compact');
  const canSend = !sending && text.trim() !== '' && (!noModel || isCommand);

  function submit() {
    if (!canSend) return;
    const t = text;
    setText('');
    void send(t).then(() => inputRef.current?.focus());
  }

  return (
    <section className="page chat-page" aria-labelledby="chat-title">
      <header className="page-header">
        <h1 id="chat-title">Chat</h1>
        <div className="row">
          <label>
            Session{' '}
            <select aria-label="Session" value={sessionId ?? ''} disabled={sending} onChange={(e) => void open(e.target.value || undefined)}>
              <option value="">New chat</option>
              {sessions.map((s) => (
                <option key={s.id} value={s.id}>
                  {label(s)} · {s.messages} messages
                </option>
              ))}
            </select>
          </label>
          <button type="button" onClick={() => void open(undefined)} disabled={sending}>
            New chat
          </button>
        </div>
      </header>
      {sessionsError && (
        <p role="alert" className="error">
          Could not list sessions: {sessionsError}
        </p>
      )}
      {noModel && (
        <div className="chat-nomodel" role="status" data-testid="chat-no-model">
          <strong>No model configured.</strong> Chat needs a chat model: a local GGUF file, an OpenAI-compatible endpoint or Anthropic.{' '}
          {llm?.problem ? <span className="muted">{llm.problem} </span> : null}
          <button type="button" className="link" onClick={() => go('settings')}>
            Set one up in Settings
          </button>
          . <span className="muted">/compact still works: without a model it writes the deterministic extract.</span>
        </div>
      )}
      {llm?.configured && (
        <p className="muted chat-model">
          Model: {llm.provider}
          {llm.model ? ` / ${llm.model}` : ''}
          {llm.contextWindow ? ` · ${llm.contextWindow.toLocaleString()}-token window` : ''}
        </p>
      )}
      <div className="chat-log" aria-label="Conversation" aria-live="polite" aria-busy={sending}>
        {historyError && (
          <p role="alert" className="error">
            Could not read the session: {historyError}
          </p>
        )}
        {hidden > 0 && <p className="muted">{hidden.toLocaleString()} earlier entries are in the Sessions timeline.</p>}
        {items.length === 0 && !historyError && (
          <p className="empty">
            {sessionId ? 'This session has no messages yet.' : 'A new chat: type a message below. The assistant wakes up with MEMORY.md and the last two days of notes, and can search older memory.'}
          </p>
        )}
        {items.map((it) => (
          <ChatItemView key={it.key} item={it} />
        ))}
        {sending && <p className="muted chat-typing">Working…</p>}
        <div ref={endRef} />
      </div>
      {sendError && (
        <p role="alert" className="error">
          {sendError}
        </p>
      )}
      <div className="chat-compose">
        <textarea
          ref={inputRef}
          aria-label="Message"
          placeholder={noModel ? 'No model: only /compact works here' : 'Message (Enter to send, Shift+Enter for a new line; /compact [instructions] to compact)'}
          value={text}
          rows={3}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
              e.preventDefault();
              submit();
            }
          }}
        />
        {sending ? (
          <button type="button" onClick={stop}>
            Stop
          </button>
        ) : (
          <button type="button" onClick={submit} disabled={!canSend}>
            Send
          </button>
        )}
      </div>
    </section>
  );
}
