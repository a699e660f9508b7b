// Typed errors. src/cli/main.ts is the only place they become exit codes.

export const ExitCode = {
  OK: 0,
  FAILURE: 1,
  USAGE: 2,
  PARTIAL: 3,
  AUTH: 4,
  TIMEOUT: 8,
  INTERRUPTED: 130,
} as const;

export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: number = ExitCode.FAILURE,
    /** What to do about it, printed under the message. */
    readonly hint?: string,
  ) {
    super(message);
  }
}

/** The exit status of a command cms ran for the user (`sandbox exec`): nothing more to print. */
export class CommandExit extends CliError {
  constructor(exitCode: number) {
    super('', exitCode);
  }
}

/** Bad flags, arguments or input files: exit 2. */
export class UsageError extends CliError {
  constructor(message: string, hint?: string) {
    super(message, ExitCode.USAGE, hint);
  }
}

/**
 * Nothing matches an id or a name the user gave: exit 1, like a 404 from the service (one rule
 * for not found, whether the CLI or the service found out).
 */
export class NotFound extends CliError {
  constructor(message: string, hint?: string) {
    super(message, ExitCode.FAILURE, hint);
  }
}

/** Some items of a bulk operation failed: exit 3. */
export class PartialFailure extends CliError {
  constructor(message: string, readonly failures: { id?: string; reason: string }[] = []) {
    super(message, ExitCode.PARTIAL);
  }
}

/** A wait ended before the job reached a terminal state: exit 8. */
export class WaitTimeout extends CliError {
  constructor(message: string) {
    super(message, ExitCode.TIMEOUT);
  }
}

export interface ApiErrorEntry {
  level?: string;
  code?: string;
  message?: string;
  entity?: string;
  property?: string;
  invalidValue?: unknown;
  [meta: string]: unknown;
}

/** An error answer of the service (status >= 400), with its error entries. */
export class ApiError extends CliError {
  constructor(
    readonly status: number,
    readonly method: string,
    readonly url: string,
    readonly errors: ApiErrorEntry[],
    readonly retryAfterMs?: number,
  ) {
    super(describe(status, errors), exitCodeFor(status), CODE_HINTS[errors[0]?.code ?? ''] ?? hintFor(status));
  }

  get code(): string | undefined {
    return this.errors[0]?.code;
  }
}

/** A 3xx answer: never followed (it may lead to another origin), an error naming where it pointed. */
export function redirectError(status: number, method: string, url: string, location: string | null): CliError {
  return new CliError(
    `${method} ${url}: the service answered ${status} (a redirect${location ? ` to ${location}` : ' without a Location'}); redirects are not followed`,
    ExitCode.FAILURE,
    'Check the API URL of the profile (https rather than http, or a missing path?): the service API answers with resources, not redirects.',
  );
}

function exitCodeFor(status: number): number {
  if (status === 401 || status === 403) return ExitCode.AUTH;
  if (status === 400 || status === 405 || status === 415 || status === 422) return ExitCode.USAGE;
  return ExitCode.FAILURE;
}

/** What to do about a refusal, as a cms command (the service's message says what is wrong). */
const CODE_HINTS: Record<string, string> = {
  CONTENT_DELIVERY_2_NOT_ENABLED: 'Enable it with `cms admin enable content-delivery-2` (add --hub <hub> for another hub).',
  SEARCH_INDEX_MODULE_DISABLED: 'Enable it with `cms admin enable search-index` (add --hub <hub> for another hub).',
  EDITION_IS_EMPTY: 'Assign a slot (`cms edition slots <edition> --add <slot>`) or add a snapshot (`cms edition content <edition> --add-snapshot <snapshot>`).',
  EDITION_HAS_INVALID_SLOTS: 'Fill every slot link: `cms edition slot-content <edition> <edition-slot> --snapshot <snapshot>`.',
  EDITION_HAS_CONFLICTS: 'Choose a version for each item: `cms edition resolve <edition> --item <item> --version <n>` (see `cms edition conflicts <edition>`).',
};

function hintFor(status: number): string | undefined {
  if (status === 401) return 'Check the credentials of the profile (cms profile show) or log in again (cms login).';
  if (status === 403) return 'The client lacks a permission for this operation; ask an administrator to grant it.';
  if (status === 404) return 'Check the identifier, and that the profile can see the hub.';
  if (status === 429 || status >= 500) return 'The service is busy or failing; try again later.';
  return undefined;
}

const REASONS: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  406: 'Not Acceptable',
  409: 'Conflict',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

function describe(status: number, errors: ApiErrorEntry[]): string {
  const head = `${status} ${REASONS[status] ?? 'Error'}`;
  if (!errors.length) return head;
  const lines = errors.slice(0, 10).map((e) => {
    const msg = e.message ?? e.code ?? 'error';
    return e.property && !msg.startsWith(`${e.property}:`) ? `${e.property}: ${msg}` : msg;
  });
  if (errors.length > 10) lines.push(`… and ${errors.length - 10} more`);
  return lines.length === 1 ? `${head}: ${lines[0]}` : `${head}:\n  ${lines.join('\n  ')}`;
}
