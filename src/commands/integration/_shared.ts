import { confirm } from '../../cli/confirm.js';
import { defineCommand, type CommandSpec, type OptionSpec } from '../../cli/define.js';
import { buildBody } from '../../cli/input.js';
import { bodyFileOption, hubOption, limitOf, limitOption, allOption, setOption, setStringOption, yesOption } from '../../cli/options.js';
import { UsageError } from '../../core/errors.js';
import { col, done, item, list } from '../../output/result.js';

// The verbs of both integration kinds, made once: `cms integration commerce|marketing <verb>`.

export type IntegrationKind = 'commerce' | 'marketing';

export const INTEGRATION_COLUMNS = [col('id'), col('type'), col('label'), col('webhook', 'webhookId'), col('created', 'createdDate')];

interface BodyFlags {
  hub?: string;
  label?: string;
  active?: boolean;
  bodyFile?: string;
  set?: string[];
}

const integrationArg = { name: 'integration', description: 'integration id', required: true };
const path = (kind: IntegrationKind, id?: string) => `/integrations/${kind}${id ? `/${id}` : ''}`;

/** What a body needs, by kind: printed in help so people know which fields to put in --body-file. */
const FIELDS: Record<IntegrationKind, string> = {
  commerce: 'Body fields: label, "commerce-credentials", "cms-credentials", "commerce-api" and rendering (objects, required), contentSlots, contentAssets and localeMappings (objects).',
  marketing: 'Body fields: label (at most 120 characters) and active (required), "marketing-credentials", "cms-credentials", rendering and contentAssets (objects, required).',
};

function bodyOptions(kind: IntegrationKind): OptionSpec[] {
  const active: OptionSpec[] = kind === 'marketing' ? [{ flags: '--active', description: 'deliver to the platform' }, { flags: '--no-active', description: 'keep the integration but deliver nothing' }] : [];
  return [hubOption, { flags: '--label <label>', description: 'label (also labels its webhook)' }, ...active, bodyFileOption, setOption, setStringOption];
}

const bodyOf = (opts: BodyFlags) => buildBody(opts, { label: opts.label, active: opts.active });

export function listVerb(kind: IntegrationKind): CommandSpec<{ hub?: string; limit: number }> {
  return defineCommand({
    summary: `List the ${kind} integrations of a hub`,
    examples: [`cms integration ${kind} list`, `cms integration ${kind} list --hub demo -o json`],
    options: [hubOption, limitOption, allOption],
    async run(ctx, _args, opts) {
      const client = await ctx.client();
      const hubId = await ctx.hubId(opts.hub, client);
      return list(client.paginateCursor(path(kind), 'integrations', { query: { hubId }, limit: limitOf(opts) }), INTEGRATION_COLUMNS, limitOf(opts));
    },
  });
}

export function getVerb(kind: IntegrationKind): CommandSpec {
  return defineCommand({
    summary: `Show a ${kind} integration (credential values are never shown)`,
    examples: [`cms integration ${kind} get 5f1a2b3c4d5e6f7a8b9c0d1e -o json`],
    args: [integrationArg],
    async run(ctx, args) {
      const client = await ctx.client();
      return item(await client.get(path(kind, args.integration)), INTEGRATION_COLUMNS);
    },
  });
}

export function createVerb(kind: IntegrationKind): CommandSpec<BodyFlags> {
  return defineCommand({
    summary: `Create a ${kind} integration (and the webhook it owns)`,
    description: `${FIELDS[kind]} The hub comes from --hub (or the default hub) unless the body names one.`,
    examples: [`cms integration ${kind} create --body-file ${kind}.json --label "EU site"${kind === 'marketing' ? ' --active' : ''}`],
    options: bodyOptions(kind),
    async run(ctx, _args, opts) {
      const client = await ctx.client();
      const body = await bodyOf(opts);
      if (opts.hub || body.hubId === undefined) body.hubId = await ctx.hubId(opts.hub, client);
      return item(await client.post(path(kind), body), INTEGRATION_COLUMNS);
    },
  });
}

export function updateVerb(kind: IntegrationKind): CommandSpec<BodyFlags> {
  return defineCommand({
    summary: `Change a ${kind} integration (only the fields given; objects are replaced whole)`,
    description: `${FIELDS[kind]} Credential values sent back as "********" keep their stored value.`,
    examples: [`cms integration ${kind} update 5f1a2b3c4d5e6f7a8b9c0d1e --label "US site"`, `cms integration ${kind} update 5f1a2b3c4d5e6f7a8b9c0d1e --set rendering.templateName=wide`],
    args: [integrationArg],
    options: bodyOptions(kind).filter((o) => o !== hubOption),
    async run(ctx, args, opts) {
      const body = await bodyOf(opts);
      if (!Object.keys(body).length) throw new UsageError('Nothing to change', 'Give at least one flag, --set or --body-file.');
      const client = await ctx.client();
      return item(await client.patch(path(kind, args.integration), body), INTEGRATION_COLUMNS);
    },
  });
}

export function deleteVerb(kind: IntegrationKind): CommandSpec<{ yes?: boolean }> {
  return defineCommand({
    summary: `Delete a ${kind} integration with its webhook`,
    examples: [`cms integration ${kind} delete 5f1a2b3c4d5e6f7a8b9c0d1e --yes`],
    args: [integrationArg],
    options: [yesOption],
    async run(ctx, args, opts) {
      const client = await ctx.client();
      await confirm(ctx, `Delete ${kind} integration ${args.integration} and its webhook?`, opts.yes);
      await client.delete(path(kind, args.integration));
      return done(`Deleted ${kind} integration ${args.integration}`);
    },
  });
}
