import { validationFailed } from '../core/errors.js';

// Credentials objects may hold secrets. They are stored as given and returned with the same keys
// but every value masked; a client that sends a fetched integration back sends the masks, which
// keep the stored values.

export const MASK = '********';

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The same shape with every value that is set replaced by the mask (null and '' say nothing). */
export function mask(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(mask);
  if (isObject(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, mask(v)]));
  return value === null || value === '' ? value : MASK;
}

/** `given` with each mask replaced by the stored value at the same place; a mask with nothing behind it is a 400. */
export function unmask(given: unknown, stored: unknown, path: string, entity: string): unknown {
  if (given === MASK) {
    if (stored === undefined || isObject(stored) || Array.isArray(stored)) {
      throw validationFailed([{ entity, property: path, invalidValue: MASK, message: `${path}: '${MASK}' stands for a stored secret, and none is stored here; send the value itself` }]);
    }
    return stored;
  }
  if (Array.isArray(given)) return given.map((v, i) => unmask(v, Array.isArray(stored) ? stored[i] : undefined, `${path}[${i}]`, entity));
  if (isObject(given)) return Object.fromEntries(Object.entries(given).map(([k, v]) => [k, unmask(v, isObject(stored) ? stored[k] : undefined, `${path}.${k}`, entity)]));
  return given;
}
