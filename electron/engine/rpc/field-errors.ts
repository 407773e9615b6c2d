/**
 * Request validation errors as fields a form can mark: the zod issue's path, and
 * a message for a person instead of the validator's wording ("Too big: expected number to be
 * <=1" becomes "must be at most 1").
 */
import type { z } from 'zod';
import type { FieldError } from '../../../shared/contract/define';

function human(i: z.core.$ZodIssue): string {
  const x = i as z.core.$ZodIssue & { maximum?: number | bigint; minimum?: number | bigint; inclusive?: boolean; expected?: string; origin?: string };
  switch (i.code) {
    case 'too_big':
      if (x.origin === 'string') return `must be at most ${x.maximum} characters`;
      if (x.origin === 'array') return `must have at most ${x.maximum} items`;
      return x.inclusive === false ? `must be less than ${x.maximum}` : `must be at most ${x.maximum}`;
    case 'too_small':
      if (x.origin === 'string') return Number(x.minimum) <= 1 ? 'must not be empty' : `must be at least ${x.minimum} characters`;
      if (x.origin === 'array') return `must have at least ${x.minimum} items`;
      return x.inclusive === false ? `must be more than ${x.minimum}` : `must be at least ${x.minimum}`;
    case 'invalid_type':
      return x.expected === 'int' ? 'must be a whole number' : `must be a ${x.expected}`;
    case 'not_multiple_of':
      return 'is not an allowed step';
    case 'invalid_format':
      return 'is not in the expected format';
    case 'unrecognized_keys':
      return `has unknown settings (${(i as { keys?: string[] }).keys?.join(', ') ?? ''})`;
    default:
      return i.message;
  }
}

/** The fields of a zod error, one per issue (`(request)` for an issue about the whole request). */
export function fieldErrors(err: z.ZodError): FieldError[] {
  return err.issues.map((i) => ({ path: i.path.length ? i.path.map(String).join('.') : '(request)', message: human(i) }));
}
