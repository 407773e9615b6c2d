import os from 'node:os';
import path from 'node:path';
import { defineConfig } from 'vitest/config';

// Cairn's per-user data dir (its files for foreign state dirs, the shared models) goes to a
// temp dir in tests, never the user's ~/.local/state/cairn; kept between runs, like a user's.
const env = { CAIRN_DATA_DIR: process.env.CAIRN_DATA_DIR ?? path.join(os.tmpdir(), 'cairn-test-data') };

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['tests/unit/**/*.test.ts'],
          environment: 'node',
          env,
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.test.ts'],
          globalSetup: ['tests/e2e/global-setup.ts'],
          environment: 'node',
          env,
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // One Chromium at a time on a 2-core machine.
          fileParallelism: false,
        },
      },
    ],
  },
});
