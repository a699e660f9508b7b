// Field-level localization on delivery (issue 31.1). With `locale` (a list such as
// `en-US,en-*,*`) every object of the core localized-value shape,
// `{"_meta": {"schema": "…/core#/definitions/localized-value"}, "values": [{"locale", "value"}]}`,
// is answered as the single value of the first entry of the list that some value matches (the
// vendor's delivery SDK README: "the locale matching is performed server side and only a single
// value will be returned"). Choices where the vendor shows nothing (docs/delivery.md): no match is
// `null`; a localized-value whose `values` is not a list of `{locale, value}` is answered as
// stored; item-level variants are items of their own, never chosen by `locale`.
// Bounded: at most MAX_ENTRIES entries of a fixed form, matched by comparison (no regex built
// from input), so the work is entries × values per localized field.

export const MAX_LOCALE_CHARS = 256;
export const MAX_ENTRIES = 32;

/** One entry of a locale list, lower case: `*`, a locale (`en-gb`) or a locale prefix (`en-*` as `en-`). */
export type LocaleEntry = { any: true } | { exact: string } | { prefix: string };

/** A locale such as en, en-GB, zh-Hant-TW (the form repositories take for item locales). */
const TAG = /^[A-Za-z]{2,3}(?:-[A-Za-z0-9]{2,8})*$/;

/** The entries of a locale list; a message naming the first bad entry otherwise. */
export function parseLocaleList(raw: unknown): { entries: LocaleEntry[] } | { problem: string } {
  const example = 'a comma-separated list of locales, each a locale (en-GB), a locale with a wildcard (en-*) or * (any)';
  if (typeof raw !== 'string') return { problem: `locale must be ${example}` };
  if (raw.length > MAX_LOCALE_CHARS) return { problem: `locale must be at most ${MAX_LOCALE_CHARS} characters` };
  const parts = raw.split(',');
  if (parts.length > MAX_ENTRIES) return { problem: `locale lists at most ${MAX_ENTRIES} locales` };
  const entries: LocaleEntry[] = [];
  for (const part of parts) {
    const entry = part.trim();
    if (entry === '*') entries.push({ any: true });
    else if (entry.endsWith('-*') && TAG.test(entry.slice(0, -2))) entries.push({ prefix: entry.slice(0, -1).toLowerCase() });
    else if (TAG.test(entry)) entries.push({ exact: entry.toLowerCase() });
    else return { problem: `locale must be ${example}: '${entry.slice(0, 64)}' is not one` };
  }
  return { entries };
}

const matches = (entry: LocaleEntry, locale: string) => ('any' in entry ? true : 'exact' in entry ? locale === entry.exact : locale.startsWith(entry.prefix));

const LOCALIZED_VALUE = 'core#/definitions/localized-value';

interface LocalizedValue {
  values: { locale: string; value: unknown }[];
}

/** Whether a value is of the localized-value shape with a well-formed `values` list. */
function localizedValue(obj: Record<string, unknown>): LocalizedValue | null {
  const schema = (obj._meta as { schema?: unknown } | undefined)?.schema;
  if (typeof schema !== 'string' || !schema.endsWith(LOCALIZED_VALUE)) return null;
  const values = obj.values;
  if (!Array.isArray(values)) return null;
  for (const v of values) if (!v || typeof v !== 'object' || Array.isArray(v) || typeof (v as { locale?: unknown }).locale !== 'string' || !Object.hasOwn(v, 'value')) return null;
  return obj as unknown as LocalizedValue;
}

/** The value of the first entry that some value's locale matches (values in their order); null when none does. */
function pick(field: LocalizedValue, entries: readonly LocaleEntry[]): unknown {
  const locales = field.values.map((v) => v.locale.toLowerCase());
  for (const entry of entries) {
    const at = locales.findIndex((l) => matches(entry, l));
    if (at >= 0) return field.values[at]!.value;
  }
  return null;
}

function isMalformedLocalized(obj: Record<string, unknown>): boolean {
  const schema = (obj._meta as { schema?: unknown } | undefined)?.schema;
  return typeof schema === 'string' && schema.endsWith(LOCALIZED_VALUE);
}

/**
 * A delivered body with every localized-value resolved for the locale list (a new value; the
 * input is not changed). The chosen value is resolved too (a localized list of inline objects
 * may hold localized fields). A localized-value with a malformed `values` is kept as stored.
 */
export function localize<T>(value: T, entries: readonly LocaleEntry[]): T {
  const walk = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(walk);
    if (!v || typeof v !== 'object') return v;
    const obj = v as Record<string, unknown>;
    const field = localizedValue(obj);
    if (field) return walk(pick(field, entries));
    if (isMalformedLocalized(obj)) return obj;
    // fromEntries defines each key as data, a `__proto__` key of stored JSON included.
    return Object.fromEntries(Object.entries(obj).map(([k, child]) => [k, walk(child)]));
  };
  return walk(value) as T;
}

/** An item body (or a delivered one) with its fields localized; `_meta` as it is, so the body itself is never taken for a localized value. */
export function localizeBody<T extends Record<string, unknown>>(body: T, entries: readonly LocaleEntry[]): T {
  const { _meta, ...fields } = body;
  // Spread over the body so the keys keep their stored order.
  return { ...body, ...localize(fields, entries), ...(_meta === undefined ? {} : { _meta }) };
}
