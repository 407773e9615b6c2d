#!/usr/bin/env node
// The `cairn` executable: runs the TypeScript CLI through tsx's loader, so it works right
// after `npm install` on a fresh clone with no build step.
import { register } from 'tsx/esm/api';

register();
const { runCli } = await import('../electron/cli/main.ts');
const code = await runCli(process.argv.slice(2));
process.exit(code);
