/**
 * Chat with the offline assistant: pick a session or start a new one, send a message (Enter;
 * Shift+Enter for a new line), watch the reply stream with tool calls and results inline and
 * markers when pruning, a memory flush or a compaction happened; `/compact [instructions]`
 * compacts. Without a model, the ways out in place (NoModel.tsx), and Enter says why it did nothing.
 */
import { useEffect, useRef, useState } from 'react';
import { useChat, wireChatEvents } from '../../stores/chat';
import { ChatItemView } from './ChatItemView';
import { NoModel } from './NoModel';
import './chat.css';
import { num } from '../sessions/format';

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
  // Why Enter did nothing: said next to the box instead of silence.
  const [hint, setHint] = useState<string | undefined>();

  function submit() {
    if (sending || text.trim() === '') return;
    if (isCommand && !sessionId) {
      setHint('A new chat has nothing to compact yet: pick a session above to compact it.');
      return;
    }
    if (!canSend) {
      setHint('No model yet: choose one above to chat (your message is kept here). /compact works without one.');
      return;
    }
    setHint(undefined);
    const t = text;
    setText('');
    void send(t).then((ok) => {
      // A failed command is not in the transcript: its text goes back into the box to fix or retry.
      if (!ok && t.trim().startsWith('/')) setText((now) => (now === '' ? t : now));
      inputRef.current?.focus();
    });
  }

  return (
    <section className="page chat-page" aria-labelledby="chat-title">
      <ChatHeader sessions={sessions} sessionId={sessionId} sending={sending} open={(id) => void open(id)} />
      {sessionsError && (
        <p role="alert" className="error">
          Could not list sessions: {sessionsError}
        </p>
      )}
      {noModel && llm && <NoModel llm={llm} onChosen={(status) => useChat.setState({ llm: status })} />}
      {llm?.configured && <ModelLine provider={llm.provider} model={llm.model} contextWindow={llm.contextWindow} />}
      <div className="chat-log" aria-label="Conversation" aria-live="polite" aria-busy={sending} tabIndex={0} data-scroll-region="">
        {historyError && (
          <p role="alert" className="error">
            Could not read the session: {historyError}
          </p>
        )}
        {hidden > 0 && <p className="muted">{num(hidden)} earlier entries are in the Sessions timeline.</p>}
        {items.length === 0 && !historyError && <EmptyChat sessionId={sessionId} noModel={noModel} />}
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
      {hint && (
        <p id="chat-hint" role="status" className="notice notice-warn" data-testid="chat-hint">
          {hint}
        </p>
      )}
      <Composer
        inputRef={inputRef}
        text={text}
        onText={(t) => {
          setText(t);
          setHint(undefined);
        }}
        hinted={hint !== undefined}
        noModel={noModel}
        sending={sending}
        submit={submit}
        stop={stop}
      />
    </section>
  );
}

type SessionOption = { id: string; name: string | undefined; key: string | undefined; messages: number };

/** The title with the session picker and "New chat". */
function ChatHeader({ sessions, sessionId, sending, open }: { sessions: readonly SessionOption[]; sessionId: string | undefined; sending: boolean; open: (id: string | undefined) => void }) {
  return (
    <header className="page-header">
      <h1 id="chat-title">Chat</h1>
      <div className="row">
        <label>
          Session{' '}
          <select aria-label="Session" value={sessionId ?? ''} disabled={sending} onChange={(e) => open(e.target.value || undefined)}>
            <option value="">New chat</option>
            {sessions.map((s) => (
              <option key={s.id} value={s.id}>
                {label(s)} · {s.messages} messages
              </option>
            ))}
          </select>
        </label>
        <button type="button" onClick={() => open(undefined)} disabled={sending}>
          New chat
        </button>
      </div>
    </header>
  );
}

/** What an empty conversation says: an empty session, or how a new chat starts. */
function EmptyChat({ sessionId, noModel }: { sessionId: string | undefined; noModel: boolean }) {
  const text = sessionId
    ? 'This session has no messages yet.'
    : noModel
      ? 'A new chat: choose a model above to start, or pick a session to read or compact it.'
      : 'A new chat: type a message below. The assistant wakes up with MEMORY.md and the last two days of notes, and can search older memory.';
  return <p className="empty">{text}</p>;
}

interface ComposerProps {
  inputRef: React.RefObject<HTMLTextAreaElement | null>;
  text: string;
  onText: (text: string) => void;
  hinted: boolean;
  noModel: boolean;
  sending: boolean;
  submit: () => void;
  stop: () => void;
}

/** The message box (Enter sends, Shift+Enter is a new line) with Send, or Stop while a reply runs. */
function Composer({ inputRef, text, onText, hinted, noModel, sending, submit, stop }: ComposerProps) {
  return (
    <div className="chat-compose">
      <textarea
        ref={inputRef}
        aria-label="Message"
        placeholder={noModel ? 'No model: only /compact works here' : 'Message (Enter to send, Shift+Enter for a new line; /compact [instructions] to compact)'}
        value={text}
        rows={3}
        onChange={(e) => onText(e.target.value)}
        aria-describedby={hinted ? 'chat-hint' : undefined}
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
        <button type="button" onClick={submit} disabled={text.trim() === ''}>
          Send
        </button>
      )}
    </div>
  );
}

/** Which model answers, and its window. */
function ModelLine({ provider, model, contextWindow }: { provider: string; model: string | undefined; contextWindow: number | undefined }) {
  return (
    <p className="muted chat-model">
      Model: {provider}
      {model ? ` / ${model}` : ''}
      {contextWindow ? ` · ${num(contextWindow)}-token window` : ''}
    </p>
  );
}
