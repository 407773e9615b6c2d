/**
 * The layer lines of STYLE.md hold: the lint rule refuses imports across them. Every process's
 * code is held to the engine's rules (issue 38): the CLI, bin/ and the OpenClaw plugin import
 * no Electron; bin/, scripts/ and the plugin get the function-length and path-inside rules.
 */
import { ESLint } from 'eslint';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(__dirname, '..', '..');
const eslint = new ESLint({ cwd: root });

/** The ids of the rules `code` breaks as `file`. */
async function ruleIds(file: string, code: string): Promise<string[]> {
  const [res] = await eslint.lintText(code, { filePath: path.join(root, file) });
  return (res?.messages ?? []).map((m) => m.ruleId ?? 'parse error');
}

async function importErrors(file: string, code: string): Promise<string[]> {
  const [res] = await eslint.lintText(code, { filePath: path.join(root, file) });
  return (res?.messages ?? []).filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

describe('layer lines', () => {
  it('renderer/ may not import Node, Electron or the engine', async () => {
    expect(await importErrors('renderer/src/x.ts', "import fs from 'node:fs';\nexport const a = fs;\n")).toHaveLength(1);
    expect(await importErrors('renderer/src/x.ts', "import path from 'path';\nexport const a = path;\n")).toHaveLength(1);
    expect(await importErrors('renderer/src/x.ts', "import { app } from 'electron';\nexport const a = app;\n")).toHaveLength(1);
    expect(await importErrors('renderer/src/x.ts', "import { createEngine } from '../../electron/engine/engine';\nexport const a = createEngine;\n")).toHaveLength(1);
    expect(await importErrors('renderer/src/x.ts', "import { httpTransport } from './transport/http';\nexport const a = httpTransport;\n")).toEqual([]);
  });

  it('shared/ may not import Node, Electron or the engine', async () => {
    expect(await importErrors('shared/x.ts', "import os from 'node:os';\nexport const a = os;\n")).toHaveLength(1);
    expect(await importErrors('shared/x.ts', "import { ipcRenderer } from 'electron';\nexport const a = ipcRenderer;\n")).toHaveLength(1);
    expect(await importErrors('shared/x.ts', "import { z } from 'zod';\nexport const a = z;\n")).toEqual([]);
  });

  it('electron/engine/ may not import Electron', async () => {
    expect(await importErrors('electron/engine/x.ts', "import { app } from 'electron';\nexport const a = app;\n")).toHaveLength(1);
    expect(await importErrors('electron/engine/x.ts', "import fs from 'node:fs';\nexport const a = fs;\n")).toEqual([]);
  });

  it('the CLI, bin/ and the plugin may not import Electron either', async () => {
    for (const file of ['electron/cli/commands/x.ts', 'bin/x.mjs', 'openclaw-plugin/x.js']) {
      expect(await importErrors(file, "import { app } from 'electron';\nexport const a = app;\n"), file).toHaveLength(1);
      expect(await importErrors(file, "import fs from 'node:fs';\nexport const a = fs;\n"), file).toEqual([]);
    }
  });

  it('bin/, scripts/ and the plugin keep functions short and confine paths through the one rule', async () => {
    const long = `export function f() {\n${Array.from({ length: 101 }, (_, i) => `  console.log(${i});`).join('\n')}\n}\n`;
    const handMade = "export const inside = (root, p) => !p.startsWith('..');\n";
    for (const file of ['bin/x.mjs', 'scripts/x.mjs', 'scripts/x.ts', 'openclaw-plugin/x.js']) {
      expect(await ruleIds(file, long), file).toEqual(['max-lines-per-function']);
      expect(await ruleIds(file, handMade), file).toEqual(['no-restricted-syntax']);
    }
  });
});
