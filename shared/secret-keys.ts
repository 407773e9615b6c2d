/**
 * The one rule for "does this setting hold a secret?", used by the engine (util/redact.ts:
 * values of such keys never appear in a message or a log) and by the Settings page (such
 * fields are masked). In shared/ with no Node or DOM imports so both sides import the same
 * rule: two copies had drifted (the page did not mask `password`, `authorization`, `headers`).
 */

/** A key name ending in a credential word: `apiKey`, `clientSecret`, `bearer_token`, `password`, `headers`… */
const SECRET_WORD = /(?:api[_-]?key|apikey|secret|token|password|passwd|auth|authorization|headers?|cookies?|credentials?)$/i;
/** `key` alone (as a whole segment) names a credential too; `monkey` or `sortKey` do not. */
const BARE_KEY = /(?:^|[_-])key$/i;

const namesSecret = (segment: string) => SECRET_WORD.test(segment) || BARE_KEY.test(segment);

/**
 * True when a config key path names a credential: its last part does (`cairn.llm.apiKey`,
 * `…remote.headers`), or the part above it does (`…remote.headers.X-Api-Token`: every
 * header's value is a secret).
 */
export function isSecretKey(keyPath: string): boolean {
  const parts = keyPath.split('.');
  const last = parts[parts.length - 1] ?? '';
  const parent = parts[parts.length - 2] ?? '';
  return namesSecret(last) || namesSecret(parent);
}
