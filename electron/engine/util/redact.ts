/**
 * The one secret-redaction rule of the engine (STYLE "Arrows point one
 * way"): transcripts, notes and settings often hold pasted API keys and tokens. Every place a
 * text leaves for somewhere it may be shown or sent — the index (a search would surface it,
 * a remote embedder would receive it), the deterministic compaction extract (later sent to a
 * model) and config warnings (shown in Status, logs, the CLI) — redacts through this module. Which
 * settings hold a secret is shared/secret-keys.ts, the rule the Settings page masks by.
 * Patterns favour catching secrets over keeping text.
 */
import { isSecretKey } from '../../../shared/secret-keys';

export const REDACTED = '[REDACTED]';

const RULES: { name: string; re: RegExp; keep?: (m: string, ...groups: string[]) => string }[] = [
  { name: 'private-key', re: /-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z ]*PRIVATE KEY-----|$)/g },
  // OpenAI / Anthropic / OpenRouter style: sk-..., sk-proj-..., sk-ant-api03-...
  { name: 'sk-key', re: /\bsk-[A-Za-z0-9_-]{16,}/g },
  { name: 'aws-access-key', re: /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g },
  { name: 'aws-secret', re: /\b(aws_secret_access_key|aws_session_token)(\s*[=:]\s*)["']?[A-Za-z0-9/+=]{16,}["']?/gi, keep: (m) => m.replace(/([=:]\s*)["']?[A-Za-z0-9/+=]{16,}["']?$/, `$1${REDACTED}`) },
  { name: 'github-token', re: /\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{40,})/g },
  { name: 'google-key', re: /\bAIza[0-9A-Za-z_-]{35}\b/g },
  { name: 'slack-token', re: /\bxox[abposr]-[A-Za-z0-9-]{10,}/g },
  { name: 'stripe-key', re: /\b(?:sk|rk|pk)_(?:live|test)_[A-Za-z0-9]{16,}/g },
  { name: 'jwt', re: /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g },
  { name: 'bearer', re: /\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]{12,}/gi, keep: (m) => `${m.split(/\s+/)[0]} ${REDACTED}` },
  // user:password@ in a URL (https://ana:hunter2@db.example/…): the user name stays.
  { name: 'url-password', re: /\b([a-z][a-z0-9+.-]*:\/\/[^\s/:@]+):[^\s/@]+@/gi, keep: (_m, prefix) => `${prefix}:${REDACTED}@` },
  // key=value / "key": "value" / ?key=value for names that say "secret".
  {
    name: 'assignment',
    re: /\b((?:[A-Za-z0-9]+[_-])*(?:api[_-]?key|apikey|secret|token|password|passwd|access[_-]?key|auth)["']?\s*[:=]\s*)["']?([^\s"',;&]{8,})["']?/gi,
    keep: (m) => m.replace(/([:=]\s*)["']?[^\s"',;&]{8,}["']?$/, `$1${REDACTED}`),
  },
  // An AWS secret access key on its own: exactly 40 base64 characters mixing upper case,
  // lower case and digits (a git SHA-1 is 40 lower-case hex digits and never matches).
  { name: 'aws-secret-unlabelled', re: /(?<![A-Za-z0-9/+=])[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+=])/g, keep: (m) => (/[A-Z]/.test(m) && /[a-z]/.test(m) && /[0-9]/.test(m) ? REDACTED : m) },
];

/** Replace every secret-looking token in `text` with `[REDACTED]`. */
export function redactSecrets(text: string): string {
  let out = text;
  for (const rule of RULES) {
    out = out.replace(rule.re, (m: string, ...groups: unknown[]) => (rule.keep ? rule.keep(m, ...(groups.filter((g) => typeof g === 'string') as string[])) : REDACTED));
  }
  return out;
}


/**
 * A value fit to show in a message about `keyPath`: "[REDACTED]" (with its type) for a
 * credential-like key, else the value with any secret-looking token inside redacted.
 */
export function describeSafely(keyPath: string, value: unknown, describe: (v: unknown) => string): string {
  if (value !== undefined && value !== null && isSecretKey(keyPath)) return `${REDACTED} (${Array.isArray(value) ? 'array' : typeof value})`;
  return redactSecrets(describe(value));
}
