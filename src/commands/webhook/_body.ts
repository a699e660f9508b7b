import { buildBody, commaList, secretOption } from '../../cli/input.js';
import { UsageError } from '../../core/errors.js';

export interface WebhookFlags {
  label?: string;
  event?: string[];
  handler?: string[];
  secret?: string;
  secretStdin?: boolean;
  header?: string[];
  secretHeader?: string[];
  method?: string;
  active?: boolean;
  bodyFile?: string;
  set?: string[];
}

export const WEBHOOK_OPTIONS = [
  { flags: '--label <label>', description: 'label' },
  { flags: '--event <name>', description: 'event to deliver, e.g. content-item.published (repeatable or comma list)', repeatable: true },
  { flags: '--handler <url>', description: 'URL that receives deliveries (repeatable)', repeatable: true },
  { flags: '--secret <secret>', description: 'signs deliveries: X-Webhook-Signature = base64(HMAC-SHA256(secret, body)) (prefer --secret-stdin: flags show in process lists)' },
  { flags: '--secret-stdin', description: 'read the signing secret from standard input' },
  { flags: '--header <key=value>', description: 'custom header sent with each delivery (repeatable)', repeatable: true },
  { flags: '--secret-header <key=value>', description: 'custom header whose value is never shown again (repeatable)', repeatable: true },
  { flags: '--method <method>', description: 'HTTP method of deliveries', choices: ['POST', 'PUT', 'PATCH', 'DELETE'] },
  { flags: '--active', description: 'deliver events' },
  { flags: '--no-active', description: 'keep the webhook but deliver nothing' },
  { flags: '--body-file <file>', description: 'JSON webhook body from a file (- for stdin); flags override its fields' },
  { flags: '--set <path=value>', description: 'set one field of the body (repeatable)', repeatable: true },
];

/** The webhook body from flags; headers given by flags replace the list. */
export async function webhookBody(opts: WebhookFlags): Promise<Record<string, unknown>> {
  const headerList = [...(opts.header ?? []).map((h) => header(h, false)), ...(opts.secretHeader ?? []).map((h) => header(h, true))];
  const secret = await secretOption(opts.secret, opts.secretStdin, { flag: '--secret', stdin: '--secret-stdin' });
  return buildBody(opts, {
    label: opts.label,
    events: opts.event ? commaList(opts.event) : undefined,
    handlers: opts.handler,
    secret,
    method: opts.method,
    active: opts.active,
    headers: headerList.length ? headerList : undefined,
  });
}

function header(text: string, secret: boolean) {
  const eq = text.indexOf('=');
  if (eq <= 0) throw new UsageError(`--${secret ? 'secret-' : ''}header needs key=value, got '${text}'`);
  return { key: text.slice(0, eq), value: text.slice(eq + 1), secret };
}
