import { matchTarget } from '../runs/reconcile.js';
import { pick, type CloneContext } from './context.js';

// Step `workflow-states`: each state by label and colour.

interface WorkflowState {
  id: string;
  label: string;
  color: string;
}

export async function cloneWorkflowStates(c: CloneContext): Promise<void> {
  const source = await c.sourceList<WorkflowState>(`/hubs/${c.source.hubId}/workflow-states`, 'workflow-states');
  const target = await c.targetList<WorkflowState>(`/hubs/${c.target.hubId}/workflow-states`, 'workflow-states');
  c.progress(source.length, 'workflow states');
  for (const state of source) {
    await c.fields({
      kind: 'workflow-state',
      sourceId: state.id,
      label: state.label,
      existing: matchTarget(c.ids, 'workflow-state', state.id, target, (t) => t.label === state.label),
      wanted: pick(state, ['label', 'color']),
      createPath: `/hubs/${c.target.hubId}/workflow-states`,
      updatePath: (id) => `/workflow-states/${id}`,
    });
  }
}
