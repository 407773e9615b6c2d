/**
 * Secret redaction for the sessions source (SPEC §6): transcripts often contain pasted API
 * keys and tokens; they must never reach the index (a search would surface them and a remote
 * embedder would receive them). Patterns favour catching secrets over keeping text.
 */

const RULES: { name: string; re: RegExp; keep?: (m: string) => string }[] = [
  { name: 'private-key', re: /-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z ]*PRIVATE KEY-----|$)/g },
  // OpenAI / Anthropic / OpenRouter style: sk-..., sk-proj-..., sk-ant-...
  { name: 'sk-key', re: /\bsk-[A-Za-z0-9_-]{16,}/g },
  { name: 'aws-access-key', re: /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g },
  { name: 'aws-secret', re: /\b(aws_secret_access_key|aws_session_token)(\s*[=:]\s*)["']?[A-Za-z0-9/+=]{16,}["']?/gi, keep: (m) => m.replace(/([=:]\s*)["']?[A-Za-z0-9/+=]{16,}["']?$/, '$1[REDACTED]') },
  { name: 'github-token', re: /\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{40,})/g },
  { name: 'google-key', re: /\bAIza[0-9A-Za-z_-]{35}\b/g },
  { name: 'slack-token', re: /\bxox[abposr]-[A-Za-z0-9-]{10,}/g },
  { name: 'stripe-key', re: /\b(?:sk|rk|pk)_(?:live|test)_[A-Za-z0-9]{16,}/g },
  { name: 'jwt', re: /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g },
  { name: 'bearer', re: /\b(Bearer)\s+[A-Za-z0-9._~+/=-]{12,}/gi, keep: (m) => `${m.split(/\s+/)[0]} [REDACTED]` },
  // key=value / "key": "value" for names that say "secret".
  {
    name: 'assignment',
    re: /\b((?:[A-Za-z0-9]+[_-])*(?:api[_-]?key|apikey|secret|token|password|passwd|access[_-]?key)["']?\s*[:=]\s*)["']?([^\s"',;]{8,})["']?/gi,
    keep: (m) => m.replace(/([:=]\s*)["']?[^\s"',;]{8,}["']?$/, '$1[REDACTED]'),
  },
];

/** Replace every secret-looking token in `text` with `[REDACTED]`. */
export function redactSecrets(text: string): string {
  let out = text;
  for (const rule of RULES) {
    out = out.replace(rule.re, (m) => (rule.keep ? rule.keep(m) : '[REDACTED]'));
  }
  return out;
}
