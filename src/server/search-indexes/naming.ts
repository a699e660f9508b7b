// Naming rules of search indexes: a suffix (and a managed replica's name after `<hubName>.`)
// is 3..63 characters without / ~ , \ ` & | ; $ * or whitespace; a label is 3..63 characters.

export const NAME_MIN = 3;
export const NAME_MAX = 63;
export const FORBIDDEN_SUFFIX_CHARACTERS = ['/', '~', ',', '\\', '`', '&', '|', ';', '$', '*'] as const;

/** Why a suffix is not allowed, or null when it is. */
export function suffixProblem(suffix: string): string | null {
  if (suffix.length < NAME_MIN || suffix.length > NAME_MAX) return `must be ${NAME_MIN} to ${NAME_MAX} characters`;
  if (/\s/.test(suffix)) return 'must not contain whitespace';
  const bad = FORBIDDEN_SUFFIX_CHARACTERS.find((c) => suffix.includes(c));
  return bad ? `must not contain '${bad}' (none of ${FORBIDDEN_SUFFIX_CHARACTERS.join(' ')} or whitespace)` : null;
}

export function labelProblem(label: string): string | null {
  if (label.length < NAME_MIN || label.length > NAME_MAX) return `must be ${NAME_MIN} to ${NAME_MAX} characters`;
  return label.trim() ? null : 'must not be blank';
}

/** An index's name: the hub's name, a dot, the suffix. */
export const indexName = (hubName: string, suffix: string): string => `${hubName}.${suffix}`;
