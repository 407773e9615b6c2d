/**
 * Electron main process: glue only. One window with the renderer (sandboxed, isolated, strict
 * CSP, no navigation, no new windows), the contract's handlers registered on IPC, engine
 * events forwarded, single-instance lock, orderly shutdown. All logic lives in the engine.
 */
import path from 'node:path';
import { app, BrowserWindow, dialog, ipcMain, net, protocol, screen, session, shell } from 'electron';
import { pathToFileURL } from 'node:url';
import { channelNames } from '../../shared/contract';
import { ipcName, IPC_EVENT, IPC_PICK_FOLDER } from '../../shared/bridge';
import { createEngineHost, type EngineHost } from '../engine/host';
import { resolveStateDir } from '../engine/config/state-dir';
import { CSP } from '../server/security';
import { registerWorkerModule } from '../engine/util/module-worker';
import { KNN_WORKER_MARK } from '../engine/search/knn-worker';
import { EMBED_WORKER_MARK } from '../engine/embed/embed-worker';
import { WRITE_WORKER_MARK } from '../engine/index/write-worker';
import { cairnDataDir } from '../engine/config/data-dir';
import { relativeInside } from '../engine/util/path-inside';
import { boundsTracker, initialBounds } from './window-bounds';
import { bridgeLaunchStateDir, runBridge } from './bridge-mode';
import { hostMcpRoute, listenMcp, mcpLogLine, type McpListener } from '../cli/mcp/http';
import { loadOrCreateToken, tokenFilePath } from '../server/token-file';
import { APP_SCHEME, isAppUrl, isSafeExternalUrl, navigationAction, permissionAllowed } from './policy';

/**
 * This bundle is CommonJS, so the engine's modules have no URL to start their workers from:
 * point them at their own builds (scripts/build-workers.mjs), unpacked from the asar.
 */
function registerWorkers(): void {
  const dir = path.join(__dirname, 'workers').replace(`app.asar${path.sep}`, `app.asar.unpacked${path.sep}`);
  registerWorkerModule(KNN_WORKER_MARK, pathToFileURL(path.join(dir, 'knn-worker.mjs')).href);
  registerWorkerModule(EMBED_WORKER_MARK, pathToFileURL(path.join(dir, 'embed-worker.mjs')).href);
  registerWorkerModule(WRITE_WORKER_MARK, pathToFileURL(path.join(dir, 'write-worker.mjs')).href);
}

protocol.registerSchemesAsPrivileged([{ scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } }]);

function stateDirFromArgs(argv: string[]): string | undefined {
  const i = argv.indexOf('--state-dir');
  return i >= 0 ? argv[i + 1] : argv.find((a) => a.startsWith('--state-dir='))?.split('=')[1];
}

const rendererRoot = path.join(__dirname, '..', 'renderer');
let engine: EngineHost | undefined;
let mcp: McpListener | undefined;

/**
 * MCP over Streamable HTTP for the assistant's other clients, as `cairn serve` offers it at
 * `/mcp`: on 127.0.0.1 only, behind the state dir's private token and the Host/Origin checks,
 * following the window's state dir. The URL is printed on start without its token (a log may
 * be read by others), with the private file that holds it.
 */
async function startMcp(host: EngineHost): Promise<void> {
  const state = host.current().ctx.state();
  const tokenFile = tokenFilePath(state.stateDir, state.createdBy);
  const token = loadOrCreateToken(tokenFile);
  mcp = await listenMcp(hostMcpRoute(host), { port: 0, token });
  console.log(mcpLogLine(mcp.url, tokenFile));
}
let win: BrowserWindow | undefined;

function serveRenderer(): void {
  protocol.handle(APP_SCHEME, async (request) => {
    const url = new URL(request.url);
    const rel = decodeURIComponent(url.pathname === '/' ? '/index.html' : url.pathname);
    const file = path.resolve(rendererRoot, `.${rel}`);
    if (!relativeInside(rendererRoot, file)) return new Response('refused', { status: 403 });
    const res = await net.fetch(pathToFileURL(file).toString());
    const headers = new Headers(res.headers);
    headers.set('content-security-policy', CSP);
    return new Response(res.body, { status: res.status, headers });
  });
}

function registerIpc(e: EngineHost): void {
  for (const channel of channelNames) {
    ipcMain.handle(ipcName(channel), (event, request: unknown, opId?: string) => {
      // Only our own renderer may call the engine.
      if (!event.senderFrame || !isAppUrl(event.senderFrame.url)) {
        return { ok: false, error: { code: 'forbidden', message: 'refused: not the Cairn window' } };
      }
      return e.dispatcher.dispatch(channel, request, opId);
    });
  }
  e.events.onAny((name, payload) => {
    if (win && !win.isDestroyed()) win.webContents.send(IPC_EVENT, name, payload);
  });
  // "Open folder…": the system's folder picker; the renderer then asks the engine to open the path.
  ipcMain.handle(IPC_PICK_FOLDER, async (event) => {
    if (!event.senderFrame || !isAppUrl(event.senderFrame.url) || !win) return undefined;
    const r = await dialog.showOpenDialog(win, { title: 'Open a Cairn or OpenClaw folder', properties: ['openDirectory', 'showHiddenFiles'] });
    return r.canceled ? undefined : r.filePaths[0];
  });
}

function createWindow(): void {
  // Sized to the screen's work area the first time, then where the person left it.
  const boundsFile = path.join(cairnDataDir(), 'window.json');
  const bounds = initialBounds(boundsFile, screen.getPrimaryDisplay().workArea, screen.getAllDisplays().map((d) => d.workArea));
  win = new BrowserWindow({
    ...bounds,
    minWidth: 720,
    minHeight: 480,
    title: 'Cairn',
    backgroundColor: '#16171a',
    webPreferences: {
      preload: path.join(__dirname, 'preload.cjs'),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      spellcheck: false,
    },
  });
  win.webContents.setWindowOpenHandler(({ url }) => {
    // Links leave for the system browser only as plain http(s) (policy.ts); never a new window.
    if (isSafeExternalUrl(url)) void shell.openExternal(url);
    return { action: 'deny' };
  });
  boundsTracker(win, boundsFile);
  void win.loadURL(`${APP_SCHEME}://app/index.html`);
}

// Started by Cairn's plugin inside OpenClaw as its bridge (bridge-mode.ts): stdio only, no window, no lock.
const bridgeStateDir = bridgeLaunchStateDir(process.argv);
if (bridgeStateDir) {
  registerWorkers();
  const headless = () => {
    app.commandLine.appendSwitch('ozone-platform', 'headless');
    app.disableHardwareAcceleration();
    app.dock?.hide();
  };
  void runBridge(bridgeStateDir, { headless, exit: (code) => app.exit(code) });
} else if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  app.on('second-instance', () => {
    if (win) {
      if (win.isMinimized()) win.restore();
      win.focus();
    }
  });
  app.on('web-contents-created', (_e, contents) => {
    contents.on('will-attach-webview', (event) => event.preventDefault());
    // Every way off the app's pages: top-level navigation, a frame's navigation and a server
    // redirect. An http(s) link goes to the system browser; anything else is dropped.
    const guard = (event: { url: string; preventDefault(): void }) => {
      const action = navigationAction(event.url);
      if (action === 'allow') return;
      event.preventDefault();
      if (action === 'open-external') void shell.openExternal(event.url);
    };
    contents.on('will-navigate', guard);
    contents.on('will-frame-navigate', guard);
    contents.on('will-redirect', guard);
  });
  void app.whenReady().then(() => {
    session.defaultSession.setPermissionRequestHandler((wc, perm, cb) => cb(permissionAllowed(perm, wc.getURL())));
    session.defaultSession.setPermissionCheckHandler((_wc, perm, origin) => permissionAllowed(perm, origin));
    registerWorkers();
    engine = createEngineHost({
      stateDir: resolveStateDir({ flag: stateDirFromArgs(process.argv) }),
      // "Open in editor" / "Show in folder" on memory files (memory.locate).
      deps: {
        openPath: async (p, how) => {
          if (how === 'folder') return shell.showItemInFolder(p);
          const err = await shell.openPath(p);
          if (err) throw new Error(`could not open ${p}: ${err}`);
        },
      },
    });
    registerIpc(engine);
    serveRenderer();
    createWindow();
    startMcp(engine).catch((err: Error) => console.error(`Cairn MCP over HTTP is off: ${err.message}`));
  });
  app.on('window-all-closed', () => app.quit());
  app.on('before-quit', (event) => {
    if (!engine) return;
    event.preventDefault();
    const e = engine;
    engine = undefined;
    const m = mcp;
    mcp = undefined;
    void (m?.close() ?? Promise.resolve())
      .then(() => e.dispose())
      .finally(() => app.quit());
  });
}
