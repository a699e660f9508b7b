import { defineCommand } from '../../cli/define.js';
import { commaList } from '../../cli/input.js';
import type { ApiClient } from '../../core/client.js';
import { CliError, PartialFailure, UsageError, WaitTimeout } from '../../core/errors.js';
import { sleep } from '../../core/retry.js';
import { col, failing, item, type Output } from '../../output/result.js';
import { fetchItem, itemArg } from './_shared.js';

interface LocalizationJob {
  id: string;
  status: 'IN_PROGRESS' | 'COMPLETED' | 'FAILED';
  requestedLocales: string[];
  results: { locale: string; status: string; createdItemIds?: string[]; message?: string }[];
}

const JOB_COLUMNS = [
  col('id'),
  col('status'),
  col('locales', (j: LocalizationJob) => j.requestedLocales.join(',')),
  col('results', (j: LocalizationJob) => j.results.map((r) => `${r.locale}: ${r.status}${r.message ? ` (${r.message})` : ''}`).join('; ')),
];
const POLL_MS = 250;

export default defineCommand<{ locale?: string[]; wait?: boolean; timeout: number }>({
  summary: 'Localize a content item and the items it links to into other locales (a localization job)',
  description:
    "Each locale must be an item locale of a repository in the item's localization group; the copies go there. The item needs a locale itself. Without --wait this prints the job as started; with --wait it polls the job until it finishes (exit 3 when some locales failed, 1 when all did, 8 on timeout).",
  examples: ['cms item localize 0f8b6f2e-5c1d-4e8a-9b7c-2d3e4f5a6b7c --locale fr-FR --wait', 'cms item localize 0f8b6f2e-5c1d-4e8a-9b7c-2d3e4f5a6b7c --locale fr-FR -o json'],
  args: [itemArg],
  options: [
    { flags: '--locale <locale>', description: 'target locale (repeatable or comma list)', required: true, repeatable: true },
    { flags: '--wait', description: 'wait until the job finishes' },
    { flags: '--timeout <duration>', description: 'how long --wait waits (30s, 2m, or seconds)', duration: true, default: '2m' },
  ],
  async run(ctx, args, opts) {
    const locales = commaList(opts.locale);
    if (!locales.length) throw new UsageError('--locale is required', 'Name at least one target locale, e.g. --locale fr-FR.');
    const client = await ctx.client();
    const { version } = await fetchItem(client, args.item);
    const job = await client.post<LocalizationJob>(`/content-items/${args.item}/localize`, { locales, version });
    if (!opts.wait) return item(job, JOB_COLUMNS);
    return outcome(await waitFor(client, job.id, opts.timeout, ctx.signal));
  },
});

async function waitFor(client: ApiClient, id: string, timeoutMs: number, signal: AbortSignal): Promise<LocalizationJob> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const job = await client.get<LocalizationJob>(`/localization-jobs/${id}`);
    if (job.status !== 'IN_PROGRESS') return job;
    if (Date.now() >= deadline) throw new WaitTimeout(`Localization job ${id} is still in progress after ${Math.round(timeoutMs / 1000)} s`);
    await sleep(POLL_MS, signal);
  }
}

/** The finished job, failing with exit 3 when some locales failed and 1 when none succeeded. */
function outcome(job: LocalizationJob): Output {
  const out = item(job, JOB_COLUMNS);
  const failed = job.results.filter((r) => r.status !== 'COMPLETED');
  if (!failed.length) return out;
  const message = `Localization failed for ${failed.map((r) => `${r.locale} (${r.message ?? 'no reason given'})`).join(', ')}`;
  return failing(out, failed.length < job.results.length ? new PartialFailure(message) : new CliError(message));
}
