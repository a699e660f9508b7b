import type { RequestContext } from '../core/context.js';
import { link, linkSet } from '../core/hal.js';
import type { WorkflowState } from './store.js';

export function renderWorkflowState(ctx: RequestContext, state: WorkflowState) {
  const base = ctx.href(`/workflow-states/${state.id}`);
  const { links, add } = linkSet(ctx, { hubId: state.hubId }, { self: link(base), 'workflow-state': link(base) });
  add('hubs.get', 'hub', link(ctx.href(`/hubs/${state.hubId}`)));
  add('workflowStates.update', 'update', link(base));
  const { hubId: _hub, ...fields } = state;
  return { ...fields, _links: links };
}
