/** A page in its own browser context with clipboard access, recording console and page errors. */
import type { Browser, Page } from 'playwright-core';

export async function clipboardPage(browser: Browser, viewport = { width: 1280, height: 800 }): Promise<{ page: Page; errors: string[]; close(): Promise<void> }> {
  const ctx = await browser.newContext({ viewport, permissions: ['clipboard-read', 'clipboard-write'] });
  const page = await ctx.newPage();
  const errors: string[] = [];
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  page.on('pageerror', (e) => errors.push(e.message));
  return { page, errors, close: () => ctx.close() };
}
