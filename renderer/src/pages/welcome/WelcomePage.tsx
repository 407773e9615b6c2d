/**
 * The welcome (an empty folder opens here instead of an empty session list) and the folder
 * switcher (the rail's "Folders"): the OpenClaw folders found on this computer with their
 * session and note counts, "Open (read-only)", "Connect Cairn to OpenClaw" where that is
 * built, "Start a new assistant here", "Explore a demo", recent folders and "Open folder…".
 * Plain words only: no command-line flags or environment variables.
 */
import { useEffect } from 'react';
import type { FoundStateDir, RecentStateDir } from '../../../../shared/types/welcome';
import { useApp } from '../../stores/app';
import { useWelcome } from '../../stores/welcome';
import { ConnectOpenClaw } from './ConnectOpenClaw';
import { OpenFolder } from './OpenFolder';
import './welcome.css';

function plural(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

function Path({ p }: { p: string }) {
  return (
    <code className="path" title={p}>
      {p}
    </code>
  );
}

function Found({ dir }: { dir: FoundStateDir }) {
  const open = useWelcome((s) => s.open);
  const opening = useWelcome((s) => s.opening);
  return (
    <li className="welcome-card" data-testid="found-openclaw">
      <h3>OpenClaw assistant</h3>
      <Path p={dir.path} />
      <p className="muted">
        {plural(dir.sessions, 'session', 'sessions')} · {plural(dir.notes, 'note', 'notes')}
      </p>
      <p className="muted small">Opened read-only: Cairn shows and searches it, and changes nothing until you turn writing on in Settings.</p>
      <div className="row">
        <button type="button" className="primary" disabled={opening !== undefined} onClick={() => void open(dir.path)} aria-label={`Open ${dir.path} (read-only)`}>
          {opening === dir.path ? 'Opening…' : 'Open (read-only)'}
        </button>
        <ConnectOpenClaw stateDir={dir.path} />
      </div>
    </li>
  );
}

function Recent({ r }: { r: RecentStateDir }) {
  const open = useWelcome((s) => s.open);
  const opening = useWelcome((s) => s.opening);
  return (
    <li className="welcome-recent">
      <Path p={r.path} />
      {r.exists ? (
        <button type="button" disabled={opening !== undefined} onClick={() => void open(r.path)} aria-label={`Open ${r.path}`}>
          Open
        </button>
      ) : (
        <span className="muted">(no longer there)</span>
      )}
    </li>
  );
}

export function WelcomePage() {
  const { info, error, opening, load, openDemo, dismiss } = useWelcome();
  const go = useApp((s) => s.go);
  useEffect(() => {
    void load();
  }, [load]);
  if (!info) return <section className="page">{error ? <p className="error">{error}</p> : <p className="muted">Looking around…</p>}</section>;
  const own = info.createdBy === 'cairn';
  return (
    <section className="page welcome" aria-labelledby="welcome-title" data-testid="welcome">
      <h1 id="welcome-title">{info.empty ? 'Welcome to Cairn' : 'Folders'}</h1>
      <p className="lead">
        {info.empty
          ? 'Cairn shows what your AI assistant remembers: its conversations, its notes, and how it keeps them short. Nothing is here yet. Pick where to start:'
          : 'Cairn works on one assistant folder at a time. Open another one here.'}
      </p>
      <p className="muted small">
        Open now: <Path p={info.stateDir} /> ({plural(info.sessions, 'session', 'sessions')}, {plural(info.notes, 'note', 'notes')})
      </p>
      {error && (
        <p role="alert" className="error" data-testid="welcome-error">
          {error}
        </p>
      )}
      {info.openclaw.length > 0 && (
        <>
          <h2>Found on this computer</h2>
          <ul className="welcome-grid" aria-label="OpenClaw folders on this computer">
            {info.openclaw.map((d) => (
              <Found key={d.path} dir={d} />
            ))}
          </ul>
        </>
      )}
      <h2>{info.openclaw.length > 0 ? 'Or' : 'Start'}</h2>
      <ul className="welcome-grid" aria-label="Ways to start">
        {info.empty && own && (
          <li className="welcome-card">
            <h3>Start a new assistant here</h3>
            <p className="muted">Chat with a model on this computer or a provider; Cairn keeps the conversation and its notes in this folder.</p>
            <button
              type="button"
              onClick={() => {
                dismiss();
                go('chat');
              }}
            >
              Start a new assistant
            </button>
          </li>
        )}
        <li className="welcome-card">
          <h3>Explore a demo</h3>
          <p className="muted">A sample assistant with a month of notes and four conversations, one shortened twice. Yours stays untouched.</p>
          <button type="button" disabled={opening !== undefined} onClick={() => void openDemo()}>
            {opening === 'demo' ? 'Building the demo…' : 'Explore a demo'}
          </button>
        </li>
        <li className="welcome-card">
          <h3>Open a folder</h3>
          <p className="muted">An OpenClaw or Cairn folder elsewhere. A folder Cairn did not create opens read-only.</p>
          {info.canSwitch ? <OpenFolder /> : <p className="muted">Opening another folder is not possible here.</p>}
        </li>
      </ul>
      {info.recent.length > 0 && (
        <>
          <h2>Recent</h2>
          <ul className="welcome-recents" aria-label="Recent folders">
            {info.recent.map((r) => (
              <Recent key={r.path} r={r} />
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
