import { diff } from '../runs/diff.js';
import { isPlanned } from '../runs/reconcile.js';
import { pick, topKeys, type CloneContext } from './context.js';

// Step `settings`: the hub settings (devices, applications, localization, virtual staging,
// publishing, asset management). Each settings object that differs replaces the target's whole.

interface HubWithSettings {
  id: string;
  settings: Record<string, unknown>;
}

export async function cloneSettings(c: CloneContext): Promise<void> {
  c.progress(1, 'settings');
  const source = await c.source.client.get<HubWithSettings>(`/hubs/${c.source.hubId}`);
  const target = isPlanned(c.target.hubId) ? { id: c.target.hubId, settings: {} } : await c.target.client.get<HubWithSettings>(`/hubs/${c.target.hubId}`);
  const wanted = source.settings ?? {};
  // A staging hostname makes a sandbox serving the target answer that name (staging and delivery
  // routes only: core/host.ts); a name from another service's data is never copied silently.
  for (const name of stagingHostnames(wanted)) {
    c.note(`hub settings: copies the staging hostname '${name}': a sandbox serving the target hub answers staging and delivery requests for that name; remove it with cms hub settings if that is not wanted`);
  }
  if (hasDamPlatform(wanted)) c.note('hub settings: publishing.platforms.vendor_dam.API_SECRET is never returned by the source; set it on the target (cms hub settings --body-file)');
  const changed = (t: HubWithSettings) => diff(pick(t.settings ?? {}, Object.keys(wanted)), wanted);
  await c.sync.unit<HubWithSettings>({
    key: 'settings',
    resource: 'hub-settings',
    label: 'hub settings',
    existing: target,
    identify: (t) => ({ id: t.id }),
    changes: changed,
    create: () => Promise.reject(new Error('the target hub exists before its settings')),
    update: async (t) => {
      await c.target.client.patch(`/hubs/${t.id}/settings`, pick(wanted, topKeys(changed(t))));
      return { id: t.id };
    },
    before: (t) => pick(t.settings ?? {}, topKeys(changed(t))),
  });
}

function hasDamPlatform(settings: Record<string, unknown>): boolean {
  const platforms = (settings.publishing as { platforms?: Record<string, unknown> } | undefined)?.platforms;
  return Boolean(platforms?.vendor_dam);
}

function stagingHostnames(settings: Record<string, unknown>): string[] {
  return ['virtualStagingEnvironment', 'previewVirtualStagingEnvironment'].flatMap((key) => {
    const hostname = (settings[key] as { hostname?: unknown } | undefined)?.hostname;
    return typeof hostname === 'string' && hostname.trim() ? [hostname.trim()] : [];
  });
}
