import { characters } from './characters.js';

// Naming rules of search indexes (the description): a suffix (and a managed replica's name after
// `<hubName>.`) is 3..63 characters without / ~ , \ ` & | ; $ * (nothing else is forbidden,
// whitespace included); a label is 3..63 characters. Lengths count code points.

export const NAME_MIN = 3;
export const NAME_MAX = 63;
export const FORBIDDEN_SUFFIX_CHARACTERS = ['/', '~', ',', '\\', '`', '&', '|', ';', '$', '*'] as const;

const lengthProblem = (s: string): string | null => {
  const n = characters(s);
  return n < NAME_MIN || n > NAME_MAX ? `must be ${NAME_MIN} to ${NAME_MAX} characters` : null;
};

/** Why a suffix is not allowed, or null when it is. */
export function suffixProblem(suffix: string): string | null {
  const bad = FORBIDDEN_SUFFIX_CHARACTERS.find((c) => suffix.includes(c));
  return lengthProblem(suffix) ?? (bad ? `must not contain '${bad}' (none of ${FORBIDDEN_SUFFIX_CHARACTERS.join(' ')})` : null);
}

export function labelProblem(label: string): string | null {
  return lengthProblem(label) ?? (label.trim() ? null : 'must not be blank');
}

/** An index's name: the hub's name, a dot, the suffix. */
export const indexName = (hubName: string, suffix: string): string => `${hubName}.${suffix}`;
