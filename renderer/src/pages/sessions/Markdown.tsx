/**
 * Markdown as the assistant wrote it (GFM tables, task lists, strikethrough), never raw HTML:
 * react-markdown escapes HTML by default and `skipHtml` drops it, so a transcript can not
 * inject markup into the page. Links open nothing inside the app window.
 */
import { memo } from 'react';
import ReactMarkdown, { type Components } from 'react-markdown';
import remarkGfm from 'remark-gfm';
import { CodeBlock } from '../../components/scroll-region';

const plugins = [remarkGfm];
const components: Components = {
  // Links are shown but inert in the workbench (no navigation away from the app).
  a: ({ children, href }) => (
    <span className="md-link" title={href}>
      {children}
    </span>
  ),
  // Images inside Markdown are not fetched (offline; no remote content).
  img: ({ alt }) => <span className="muted">[image: {alt}]</span>,
  pre: ({ children }) => <CodeBlock>{children}</CodeBlock>,
};

export const Markdown = memo(function Markdown({ text }: { text: string }) {
  return (
    <div className="md">
      <ReactMarkdown remarkPlugins={plugins} components={components} skipHtml>
        {text}
      </ReactMarkdown>
    </div>
  );
});
