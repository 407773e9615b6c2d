/**
 * Issue 14 item 3, in Chromium: the server stops mid-use. Every page shows that it is
 * disconnected; opening a page never loaded before waits instead of breaking the app; a
 * failed search drops the old results; after a restart on the same port with the same token
 * (what `cairn serve` does with its token file) the window recovers by itself, events
 * included. A restart with another token says what to do.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { createEngine, type Engine } from '../../electron/engine/engine';
import { startServer, type RunningServer } from '../../electron/server/server';
import { launchChromium, openPage, screenshot } from '../helpers/browser';
import { RENDERER_DIR } from '../helpers/server';
import { seedMemory } from '../helpers/seed-memory';

// The browser logs each refused request while the server is down; those are expected here.
const OUTAGE_NOISE = /ERR_CONNECTION_REFUSED|ERR_CONNECTION_RESET|ERR_EMPTY_RESPONSE|Failed to load resource|401 \(Unauthorized\)|EventSource/;

let browser: Browser;
let engine: Engine;
let server: RunningServer | undefined;
let workspace: string;
let stateDir: string;

function serve(port: number, token: string): Promise<RunningServer> {
  return startServer({ dispatcher: engine.dispatcher, events: engine.events, staticDir: RENDERER_DIR, port, token });
}

beforeAll(async () => {
  stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-e2e-reconnect-'));
  workspace = seedMemory(stateDir).workspace;
  browser = await launchChromium();
  engine = createEngine({ stateDir });
});
afterAll(async () => {
  await server?.close();
  await engine?.dispose();
  await browser?.close();
  if (stateDir) fs.rmSync(stateDir, { recursive: true, force: true });
});

describe('The engine going away', () => {
  it('shows the outage, keeps the app usable, and recovers after a restart on the same port', async () => {
    server = await serve(0, 'a'.repeat(40));
    const { port, token } = server;
    const { page, errors } = await openPage(browser, `${server.openUrl}#/search`);
    const box = page.getByRole('searchbox', { name: 'Search memory' });
    await box.fill('restic');
    await page.getByTestId('search-result').first().waitFor();

    await server.close();
    server = undefined;
    const banner = page.getByTestId('connection-banner');
    await banner.waitFor();
    expect(await banner.getAttribute('data-state')).toBe('offline');
    // A new query while away: an error, and the old results are gone rather than shown as its answer.
    await box.fill('backups nas');
    await page.getByRole('alert').filter({ hasText: /Search failed/ }).waitFor();
    expect(await page.getByTestId('search-result').count()).toBe(0);
    // A page never loaded before: it waits for the engine, the app stays up.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: /Settings/ }).click();
    await page.getByText('Loading…').waitFor();
    expect(await page.getByText('Something went wrong').count()).toBe(0);
    await screenshot(page, 'reconnect-offline');

    // Same port, same token: the window comes back without a reload.
    server = await serve(port, token);
    await banner.waitFor({ state: 'detached' });
    await page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor();
    // Events flow again: a file changed on disk refreshes the open memory file.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: /Memory/ }).click();
    await page.getByTestId('memory-rendered').getByText('Standing decisions').waitFor();
    fs.appendFileSync(path.join(workspace, 'MEMORY.md'), '\n- After the restart: puffin-meridian.\n');
    await page.getByTestId('memory-rendered').getByText('puffin-meridian').waitFor();
    expect(errors.filter((e) => !OUTAGE_NOISE.test(e))).toEqual([]);
    await page.close();
  });

  it('says what to do when the engine restarted with another token', async () => {
    server ??= await serve(0, 'b'.repeat(40));
    const port = server.port;
    const { page, errors } = await openPage(browser, `${server.openUrl}#/status`);
    await page.getByTestId('state-dir').waitFor();
    await server.close();
    server = await serve(port, 'c'.repeat(40));
    const banner = page.getByTestId('connection-banner').and(page.locator('[data-state="unauthorized"]'));
    // Whichever the window notices first (the stream or a call), it ends at "new access token".
    await page.getByRole('button', { name: /Check again|Try again|Retry now/ }).first().click();
    await banner.waitFor();
    expect(await banner.textContent()).toMatch(/new access token.*Open the address Cairn printed/);
    await screenshot(page, 'reconnect-new-token');
    expect(errors.filter((e) => !OUTAGE_NOISE.test(e))).toEqual([]);
    await page.close();
  });
});
