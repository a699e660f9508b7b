import type { Context } from '../cli/context.js';
import type { ApiClient } from '../core/client.js';
import { ApiError } from '../core/errors.js';

/** A narrated walk through the service on the current profile (the embedded sandbox by default). */
export async function runDemo(ctx: Context, hubName: string): Promise<void> {
  const client = await ctx.client();
  const paint = await ctx.io.colors();
  let n = 0;
  const step = (title: string) => ctx.io.out(`\n${paint.bold(`${++n}. ${title}`)}\n`);
  const say = (line: string) => ctx.io.out(`   ${line}\n`);
  const conn = ctx.connection();
  ctx.io.out(`${paint.bold('cms demo')} on ${conn.embedded ? `the embedded sandbox (${conn.dataDir})` : conn.apiUrl}\n`);

  step(`Create the hub '${hubName}'`);
  const existing = await findHub(client, hubName);
  if (existing) {
    await client.delete(`/hubs/${existing}`);
    say(`replaced the previous '${hubName}' hub`);
  }
  const hub = await client.post<{ id: string; name: string; settings: { devices: { name: string }[] } }>('/hubs', {
    name: hubName,
    label: 'Demo hub',
    description: 'Created by cms demo',
  });
  say(`hub ${hub.id} with devices ${hub.settings.devices.map((d) => d.name).join(', ')}`);
  await client.patch(`/hubs/${hub.id}/settings`, { localization: { locales: ['en-GB', 'fr-FR', 'de-DE'] } });
  say('hub locales set to en-GB, fr-FR, de-DE');

  step('Create repositories');
  const content = await client.post<{ id: string }>(`/hubs/${hub.id}/content-repositories`, { name: 'content', label: 'Content' });
  const french = await client.post<{ id: string }>(`/hubs/${hub.id}/content-repositories`, { name: 'content-fr', label: 'French content' });
  const slots = await client.post<{ id: string }>(`/hubs/${hub.id}/content-repositories`, { name: 'slots', label: 'Slots' });
  await client.post(`/content-repositories/${slots.id}/features`, undefined, { query: { feature: 'slots' } });
  say(`content ${content.id}, content-fr ${french.id}, and slots ${slots.id} with the 'slots' feature`);

  step('Set up localization');
  await client.post(`/content-repositories/${content.id}/item-locales`, { itemLocales: ['en-GB'] });
  await client.post(`/content-repositories/${french.id}/item-locales`, { itemLocales: ['fr-FR'] });
  await client.post(`/content-repositories/${content.id}/localization-group`, { newRepositoryId: french.id });
  const group = await client.get<{ locales: string[] }>(`/content-repositories/${content.id}/localization-group/locales`);
  say(`content and content-fr form one localization group with locales ${group.locales.join(', ')}`);

  step('Find repositories by feature');
  const withSlots: string[] = [];
  for await (const repo of client.paginate<{ name: string }>(`/hubs/${hub.id}/content-repositories/search/findByFeaturesContaining`, 'content-repositories', { query: { feature: 'slots' } })) {
    withSlots.push(repo.name);
  }
  say(`repositories with slots: ${withSlots.join(', ')}`);

  step('Permissions are enforced');
  try {
    await client.post(`/hubs/${hub.id}/content-repositories`, { name: 'content', label: 'Duplicate' });
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    say(`a second repository named 'content' is refused: ${err.message}`);
  }

  ctx.io.out(`\nTry next:\n  cms repo list --hub ${hubName}\n  cms hub get ${hubName} -o json\n  cms sandbox serve   (the same data over HTTP)\n`);
}

async function findHub(client: ApiClient, name: string): Promise<string | undefined> {
  for await (const hub of client.paginate<{ id: string; name: string }>('/hubs', 'hubs')) if (hub.name === name) return hub.id;
  return undefined;
}
