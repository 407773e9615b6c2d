/**
 * The Electron window's security policy (issue 10 item 11), read where it is written: the
 * navigation / openExternal / permission rules of electron/main/policy.ts, the fuses in
 * electron-builder.yml, the CSP, and main.ts wiring every handler to the policy.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { isAppUrl, isSafeExternalUrl, navigationAction, permissionAllowed } from '../../electron/main/policy';
import { CSP } from '../../electron/server/security';

const root = path.resolve(__dirname, '..', '..');

describe('policy', () => {
  it('opens only plain http(s) links in the system browser', () => {
    for (const u of ['https://docs.openclaw.ai/concepts/memory', 'http://localhost:3000/admin']) expect(isSafeExternalUrl(u)).toBe(true);
    for (const u of [
      'file:///etc/passwd',
      'javascript:alert(1)',
      'vscode://file/etc/hosts',
      'ms-msdt:/id PCWDiagnostic',
      'smb://attacker/share',
      '\\\\attacker\\share',
      'https://user:pw@example.com/',
      'data:text/html,<script>1</script>',
      'cairn-app://app/index.html',
      'not a url',
    ]) expect(isSafeExternalUrl(u), u).toBe(false);
  });

  it('lets the window show only the app’s own pages; everything else is opened outside or dropped', () => {
    expect(isAppUrl('cairn-app://app/index.html#/sessions')).toBe(true);
    expect(isAppUrl('cairn-app://evil/index.html')).toBe(false);
    expect(navigationAction('cairn-app://app/index.html')).toBe('allow');
    expect(navigationAction('https://example.com/')).toBe('open-external');
    expect(navigationAction('file:///home/ana/.ssh/id_rsa')).toBe('deny');
  });

  it('grants no web permission, asked or checked', () => {
    for (const p of ['media', 'notifications', 'geolocation', 'clipboard-read', 'openExternal']) expect(permissionAllowed(p, 'cairn-app://app/')).toBe(false);
  });
});

describe('wiring and packaging', () => {
  const main = fs.readFileSync(path.join(root, 'electron/main/main.ts'), 'utf8');

  it('main.ts routes every navigation event and both permission handlers through the policy', () => {
    for (const ev of ['will-navigate', 'will-frame-navigate', 'will-redirect']) expect(main).toContain(`contents.on('${ev}', guard)`);
    expect(main).toMatch(/setPermissionRequestHandler\([^)]*\)\s*=>\s*cb\(permissionAllowed\(/);
    expect(main).toMatch(/setPermissionCheckHandler\([^)]*\)\s*=>\s*permissionAllowed\(/);
    // openExternal is only ever called behind the policy
    expect(main.match(/shell\.openExternal\(/g)?.length).toBe(2);
    expect(main).toContain('if (isSafeExternalUrl(url)) void shell.openExternal(url)');
    expect(main).toContain("if (action === 'open-external') void shell.openExternal(event.url)");
  });

  it('electron-builder.yml flips the fuses', () => {
    const yml = fs.readFileSync(path.join(root, 'electron-builder.yml'), 'utf8');
    const block = yml.slice(yml.indexOf('electronFuses:'));
    for (const line of ['runAsNode: false', 'enableNodeOptionsEnvironmentVariable: false', 'enableNodeCliInspectArguments: false', 'enableEmbeddedAsarIntegrityValidation: true', 'onlyLoadAppFromAsar: true']) {
      expect(block).toContain(`  ${line}`);
    }
  });

  it('the CSP allows no inline styles or scripts', () => {
    expect(CSP).toContain("style-src 'self';");
    expect(CSP).not.toContain('unsafe-inline');
    expect(CSP).not.toContain('unsafe-eval');
  });
});
