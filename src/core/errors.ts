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

/**
 * The one list of error codes scripts branch on (`-o json` puts one in every error, see
 * docs/scripting.md): the service's own code when it answered with one (EDITION_IS_EMPTY, ...),
 * otherwise one of these.
 */
export const ERROR_CODES = {
  USAGE: 'bad flags, arguments or input (exit 2)',
  INVALID: 'the service refused the request as invalid (400, 422) and gave no code of its own',
  AUTH: 'authentication failed (401, or credentials refused)',
  FORBIDDEN: 'the client lacks a permission (403)',
  NOT_FOUND: 'nothing matches the id or name (404, or found out by the CLI)',
  CONFLICT: 'the resource is in a state that refuses the change (409), e.g. a version moved on',
  RATE_LIMITED: 'the service kept answering 429 through every retry',
  SERVICE_ERROR: 'the service failed (5xx) through every retry',
  UNREACHABLE: 'no connection to the service (refused, unknown host, TLS failed, timed out)',
  NOT_THE_SERVICE: 'the URL answered, but not like the service (an HTML page, a 404 on the token path)',
  PARTIAL: 'some items of a bulk run failed (exit 3)',
  SANDBOX_DAMAGED: 'the embedded sandbox database is not readable (cms sandbox reset moves it aside)',
  DRIFT: 'apply --exit-code: the hub differs from the files',
  TIMEOUT: 'a wait ended before the job finished (exit 8)',
  INTERRUPTED: 'Ctrl-C (exit 130)',
  FAILED: 'any other failure (exit 1)',
  UNEXPECTED: 'a defect of the CLI: please report it',
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;

export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: number = ExitCode.FAILURE,
    /** What to do about it, printed under the message. */
    readonly hint?: string,
    /** For scripts (see ERROR_CODES); by default from the exit code. */
    readonly errorCode?: ErrorCode,
    /** The service's refusal this error tells of: its code and status stay in `-o json` errors. */
    cause?: unknown,
  ) {
    super(message, cause === undefined ? undefined : { cause });
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
    super(message, ExitCode.USAGE, hint, 'USAGE');
  }
}

/** The URL answered, but not like the service: an HTML page, a 404 where the token should be. */
export class NotTheService extends CliError {
  constructor(
    message: string,
    hint: string,
    readonly status?: number,
  ) {
    super(message, ExitCode.FAILURE, hint, 'NOT_THE_SERVICE');
  }
}

/** The code and status an error carries in `-o json` errors. */
export function errorFacts(e: CliError): { code: string; status?: number } {
  if (e instanceof ApiError) return { code: e.code ?? statusCode(e.status), status: e.status };
  // An error that retells a refusal (a checklist, a friendlier message) keeps the service's facts.
  const answer = serviceAnswer(e);
  if (answer) return { code: answer.code ?? e.errorCode ?? statusCode(answer.status), status: answer.status };
  if (e instanceof NotTheService) return { code: 'NOT_THE_SERVICE', status: e.status };
  if (e.errorCode) return { code: e.errorCode };
  const byExit: Record<number, ErrorCode> = { [ExitCode.USAGE]: 'USAGE', [ExitCode.PARTIAL]: 'PARTIAL', [ExitCode.AUTH]: 'AUTH', [ExitCode.TIMEOUT]: 'TIMEOUT', [ExitCode.INTERRUPTED]: 'INTERRUPTED' };
  return { code: byExit[e.exitCode] ?? 'FAILED' };
}

/** The service's answer behind an error, through a few causes at most. */
function serviceAnswer(e: Error): ApiError | undefined {
  let cause: unknown = e.cause;
  for (let depth = 0; depth < 5 && cause instanceof Error; depth++, cause = cause.cause) if (cause instanceof ApiError) return cause;
  return undefined;
}

function statusCode(status: number): ErrorCode {
  if (status === 401) return 'AUTH';
  if (status === 403) return 'FORBIDDEN';
  if (status === 404) return 'NOT_FOUND';
  if (status === 409) return 'CONFLICT';
  if (status === 429) return 'RATE_LIMITED';
  if (status >= 500) return 'SERVICE_ERROR';
  if (status >= 400) return 'INVALID';
  return 'FAILED';
}

/**
 * Nothing matches an id or a name the user gave: exit 1, like a 404 from the service (one rule
 * for not found, whether the CLI or the service found out).
 */
export class NotFound extends CliError {
  constructor(message: string, hint?: string) {
    super(message, ExitCode.FAILURE, hint, 'NOT_FOUND');
  }
}

/** Some items of a bulk operation failed: exit 3. */
export class PartialFailure extends CliError {
  constructor(message: string, readonly failures: { id?: string; reason: string }[] = []) {
    super(message, ExitCode.PARTIAL, undefined, 'PARTIAL');
  }
}

/** A wait ended before the job reached a terminal state: exit 8. */
export class WaitTimeout extends CliError {
  constructor(message: string) {
    super(message, ExitCode.TIMEOUT, undefined, 'TIMEOUT');
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
    super(describe(status, errors), exitCodeFor(status), hintForEntry(errors[0], url) ?? hintFor(status));
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

/** A hint by the error's code, and for an edition that cannot change, by its state (what can be done instead). */
function hintForEntry(entry: ApiErrorEntry | undefined, url: string): string | undefined {
  const code = entry?.code ?? '';
  if ((code === 'EDITION_NOT_DRAFT' || code === 'EDITION_NOT_SCHEDULED') && entry?.invalidValue === 'PUBLISHED') {
    const id = /\/editions\/([^/?#]+)/.exec(url)?.[1] ?? '<edition>';
    return `A published edition stays as it is. To change its content, make a new edition from it (cms edition create --event <event> --copy-from ${id}); to retire it, cms edition archive ${id}.`;
  }
  if (code === 'EDITION_NOT_DRAFT' && (entry?.invalidValue === 'SCHEDULED' || entry?.invalidValue === 'SCHEDULING')) {
    const id = /\/editions\/([^/?#]+)/.exec(url)?.[1] ?? '<edition>';
    return `Unschedule it first: cms edition unschedule ${id}`;
  }
  return CODE_HINTS[code];
}

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
  // The sandbox's verify: the journal does not hold what was expected.
  417: 'Expectation Failed',
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

/** An HTML page (or any markup) where JSON was expected. */
export function looksLikeHtml(contentType: string | null, body: string): boolean {
  return /\bhtml\b|\bxml\b/i.test(contentType ?? '') || /^\s*</.test(body);
}

/** The error for an answer that is not the service's: what was asked, what was expected, what came back. */
export function notTheService(method: string, url: string, status: number, contentType: string | null, body: string, expected: string, from?: string): NotTheService {
  const u = new URL(url);
  const type = (contentType ?? 'no content type').split(';')[0]!.trim();
  const sample = body.replace(/\s+/g, ' ').trim().slice(0, 80).replace(/[^\x20-\x7e]/g, '?');
  return new NotTheService(
    `${u.origin} does not look like the service: ${method} ${u.pathname} answered ${status} ${type}${sample ? ` (${JSON.stringify(sample)}${body.length > 80 ? '…' : ''})` : ''}, where ${expected} was expected`,
    `Check the URL${from ? ` (it comes from ${from})` : ''}: it should be the service's API, e.g. https://api.amplience.net; the sandbox is http://127.0.0.1:<port> (cms sandbox serve).`,
    status,
  );
}

/**
 * A file cms could not write, said so the user can act on it (exit 1, the path named): a full
 * disk or quota as such, a directory in the way, no permission, a read-only file system; an
 * error that is none of these is returned as it is.
 */
export function writeFailure(err: unknown, path: string, what: string): unknown {
  const code = (err as NodeJS.ErrnoException)?.code;
  const why: Record<string, string> = {
    ENOSPC: 'no space left on the device',
    EDQUOT: 'the disk quota is used up',
    EISDIR: 'a directory is in the way',
    EACCES: 'permission denied',
    EPERM: 'permission denied',
    EROFS: 'the file system is read-only',
    ENOTDIR: 'a file is in the way of its directory',
  };
  if (!code || !why[code]) return err;
  return new CliError(`Could not write ${what} ${path}: ${why[code]} (${code})`, ExitCode.FAILURE, code === 'ENOSPC' || code === 'EDQUOT' ? 'Free some space on that disk, then run it again.' : undefined);
}
