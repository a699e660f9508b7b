import { defineCommand } from '../../../cli/define.js';
import { commaList, secretOption } from '../../../cli/input.js';
import { UsageError } from '../../../core/errors.js';
import { item } from '../../../output/result.js';

interface Opts {
  id?: string;
  secret?: string;
  secretStdin?: boolean;
  label?: string;
  permission?: string[];
  acl?: string[];
}

export default defineCommand<Opts>({
  summary: 'Create a restricted API client in the sandbox',
  description:
    'Creates a client with chosen functional permissions (CONTENT:FUNCTIONAL:<AREA>:<ACTION>, or "all") and ACL entries, to try permission behaviour. An ACL entry is hub:<hub>:<PERMS> or repo:<repository id>:<PERMS>, permissions comma-separated.',
  examples: [
    'cms sandbox client create --id editor --secret s3cret --permission CONTENT:FUNCTIONAL:CONTENT_ITEM:READ --acl hub:demo:READ',
    'cms sandbox client create --id ops --secret s3cret --permission all --acl hub:demo:READ,EDIT,CREATE_REPOSITORY',
    'cms sandbox client create --id ci --secret-stdin --permission all --acl hub:demo:READ < secret.txt',
  ],
  options: [
    { flags: '--id <client-id>', description: 'client id' },
    { flags: '--secret <secret>', description: 'client secret (prefer --secret-stdin: flags show in process lists)' },
    { flags: '--secret-stdin', description: 'read the client secret from standard input' },
    { flags: '--label <text>', description: 'description of the client' },
    { flags: '--permission <list>', description: 'functional permissions (comma list, repeatable; "all" for every one)', repeatable: true },
    { flags: '--acl <entry>', description: 'hub:<id|name>:<PERMS> or repo:<id>:<PERMS> (repeatable)', repeatable: true },
  ],
  async run(ctx, _args, opts) {
    const secret = await secretOption(opts.secret, opts.secretStdin, { flag: '--secret', stdin: '--secret-stdin' });
    if (!opts.id || !secret) throw new UsageError('Give --id and --secret (or --secret-stdin)');
    const client = await ctx.client();
    let permissions = commaList(opts.permission);
    if (permissions.includes('all')) {
      const { FUNCTIONAL_PERMISSIONS } = await import('../../../server/core/auth/permissions.js');
      permissions = [...FUNCTIONAL_PERMISSIONS];
    }
    const acl = [];
    for (const entry of opts.acl ?? []) {
      const m = /^(hub|repo):([^:]+):(.+)$/.exec(entry);
      if (!m) throw new UsageError(`--acl '${entry}' must look like hub:<hub>:READ,EDIT or repo:<repository id>:READ`);
      const id = m[1] === 'hub' ? await ctx.hubId(m[2], client) : m[2]!;
      acl.push({ resource: m[1] === 'hub' ? 'hubs' : 'content-repositories', id, permissions: commaList(m[3]) });
    }
    return item(await client.post('/__sandbox/clients', { id: opts.id, secret, label: opts.label, permissions, acl }));
  },
});
