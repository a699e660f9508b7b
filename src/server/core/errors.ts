// The single error factory of the sandbox service. Every error answer has the wire shape
// {"errors":[{level, code, message, entity, property, invalidValue}]}.

export interface ErrorEntry {
  level: 'ERROR';
  code: string;
  message: string;
  entity?: string;
  property?: string;
  invalidValue?: unknown;
  [meta: string]: unknown;
}

export interface ErrorDetail {
  message: string;
  code?: string;
  entity?: string;
  property?: string;
  invalidValue?: unknown;
  [meta: string]: unknown;
}

export class ServiceError extends Error {
  constructor(
    readonly status: number,
    readonly entries: ErrorEntry[],
    readonly headers: Record<string, string> = {},
  ) {
    super(entries[0]?.message ?? `HTTP ${status}`);
  }
  /** The answer's body: `{errors}` (a family with another wire shape overrides it). */
  toBody(): object {
    return { errors: this.entries };
  }
}

const DEFAULT_CODES: Record<number, string> = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED',
  406: 'NOT_ACCEPTABLE',
  409: 'CONFLICT',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  500: 'INTERNAL_SERVER_ERROR',
};

export function serviceError(status: number, details: ErrorDetail | ErrorDetail[], headers?: Record<string, string>): ServiceError {
  const list = Array.isArray(details) ? details : [details];
  return new ServiceError(
    status,
    list.map((d) => ({ ...d, level: 'ERROR' as const, code: d.code ?? DEFAULT_CODES[status] ?? 'ERROR' })),
    headers,
  );
}

export const badRequest = (message: string, detail: Omit<ErrorDetail, 'message'> = {}) =>
  serviceError(400, { ...detail, message });

export const validationFailed = (details: ErrorDetail[]) =>
  serviceError(400, details.map((d) => ({ code: 'VALIDATION_FAILED', ...d })));

export const unauthorized = (message = 'Full authentication is required to access this resource') =>
  serviceError(401, { message }, { 'WWW-Authenticate': 'Bearer realm="cms-sandbox"' });

export const forbidden = (message: string, detail: Omit<ErrorDetail, 'message'> = {}) =>
  serviceError(403, { ...detail, message });

export const notFound = (entity: string, id?: string) =>
  serviceError(404, {
    entity,
    property: id === undefined ? undefined : 'id',
    invalidValue: id,
    message: id === undefined ? `${entity} not found` : `${entity} ${id} not found`,
  });

export const conflict = (message: string, detail: Omit<ErrorDetail, 'message'> = {}) =>
  serviceError(409, { ...detail, message });
