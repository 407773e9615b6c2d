/** The layer lines of STYLE.md hold: the lint rule refuses imports across them. */
import { ESLint } from 'eslint';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(__dirname, '..', '..');
const eslint = new ESLint({ cwd: root });

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
});
