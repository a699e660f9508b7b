import { matchTarget } from '../runs/reconcile.js';
import { pick, type CloneContext } from './context.js';

// Step `extensions`: each extension by name (unique in a hub), with all its fields.

interface Extension {
  id: string;
  name: string;
  label: string;
}

const FIELDS = ['name', 'label', 'description', 'url', 'height', 'category', 'parameters', 'snippets', 'settings', 'status'];

export async function cloneExtensions(c: CloneContext): Promise<void> {
  const source = await c.sourceList<Extension>(`/hubs/${c.source.hubId}/extensions`, 'extensions');
  const target = await c.targetList<Extension>(`/hubs/${c.target.hubId}/extensions`, 'extensions');
  c.progress(source.length, 'extensions');
  for (const ext of source) {
    await c.fields({
      kind: 'extension',
      sourceId: ext.id,
      label: ext.name,
      existing: matchTarget(c.ids, 'extension', ext.id, target, (t) => t.name === ext.name),
      wanted: pick(ext, FIELDS),
      createPath: `/hubs/${c.target.hubId}/extensions`,
      updatePath: (id) => `/extensions/${id}`,
    });
  }
}
