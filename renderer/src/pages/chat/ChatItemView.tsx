/** One chat item: a user or assistant bubble (Markdown, thinking collapsible), a tool call or result, or a marker. */
import Markdown from 'react-markdown';
import { CodeBlock, scrollRegion } from '../../components/scroll-region';
import remarkGfm from 'remark-gfm';
import type { ChatItem } from '../../stores/chat';
import { num } from '../sessions/format';

const RESULT_PREVIEW = 1200;

export function ChatItemView({ item }: { item: ChatItem }) {
  switch (item.kind) {
    case 'user':
      return (
        <div className="chat-msg chat-user" data-testid="chat-user">
          <div className="chat-role">You</div>
          <div className="chat-text">{item.text}</div>
        </div>
      );
    case 'assistant':
      return (
        <div className={`chat-msg chat-assistant${item.live ? ' live' : ''}`} data-testid="chat-assistant">
          <div className="chat-role">Assistant</div>
          {item.thinking && (
            <details className="chat-thinking">
              <summary>Thinking</summary>
              <pre {...scrollRegion('Thinking')}>{item.thinking}</pre>
            </details>
          )}
          {item.text && (
            <div className="chat-md">
              <Markdown remarkPlugins={[remarkGfm]} components={{ pre: CodeBlock }} skipHtml>
                {item.text}
              </Markdown>
            </div>
          )}
        </div>
      );
    case 'toolCall':
      return (
        <details className="chat-tool" data-testid="chat-tool-call">
          <summary>
            <span className="chat-tool-label">Tool call</span> <code>{item.name}</code>
          </summary>
          <pre {...scrollRegion(`Arguments of ${item.name}`)}>{JSON.stringify(item.args, null, 2)}</pre>
        </details>
      );
    case 'toolResult':
      return (
        <details className={`chat-tool chat-result${item.isError ? ' error' : ''}`} data-testid="chat-tool-result">
          <summary>
            <span className="chat-tool-label">{item.isError ? 'Tool error' : 'Tool result'}</span> <code>{item.name}</code>{' '}
            <span className="muted">{num(item.text.length)} chars shown</span>
          </summary>
          <pre {...scrollRegion(`Result of ${item.name}`)}>{item.text.length > RESULT_PREVIEW ? `${item.text.slice(0, RESULT_PREVIEW)}\n…` : item.text}</pre>
        </details>
      );
    case 'marker':
      return (
        <div className={`chat-marker chat-marker-${item.marker}`} role="note" data-testid={`chat-marker-${item.marker}`}>
          {item.text}
        </div>
      );
  }
}
