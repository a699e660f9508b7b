import { created, ok, type RequestContext } from '../core/context.js';
import { notFound } from '../core/errors.js';
import { pageOf, pageRequest } from '../core/hal.js';
import { newId } from '../core/ids.js';
import { loadHub } from '../hubs/index.js';
import { workflowStates, type WorkflowState } from './store.js';
import { renderWorkflowState } from './render.js';
import type { Input } from '../core/validate.js';
import type * as bodies from './schemas.js';

const SORTABLE = ['label', 'color', 'createdDate', 'lastModifiedDate'] as const;

export function list(ctx: RequestContext) {
  const hubId = loadHub(ctx).id;
  const req = pageRequest(ctx, SORTABLE, [{ field: 'createdDate', dir: 'asc' }]);
  const page = workflowStates(ctx.db).page({ where: 'hub_id = ?', params: [hubId] }, req);
  return ok(pageOf(ctx, 'workflow-states', page, req, (s) => renderWorkflowState(ctx, s)));
}

export function create(ctx: RequestContext) {
  const hubId = loadHub(ctx).id;
  const input = ctx.body<Input<typeof bodies.create>>();
  const state: WorkflowState = { id: newId(ctx.now()), hubId, label: input.label, color: input.color, ...ctx.createdStamp() };
  workflowStates(ctx.db).insert(state);
  return created(renderWorkflowState(ctx, state), ctx.href(`/workflow-states/${state.id}`));
}

export function get(ctx: RequestContext) {
  return ok(renderWorkflowState(ctx, loadWorkflowState(ctx)));
}

/** Changes only the fields given. */
export function update(ctx: RequestContext) {
  const state = loadWorkflowState(ctx);
  const input = ctx.body<Input<typeof bodies.update>>();
  const next: WorkflowState = { ...state, label: input.label ?? state.label, color: input.color ?? state.color, ...ctx.modifiedStamp() };
  workflowStates(ctx.db).update(next);
  return ok(renderWorkflowState(ctx, next), ctx.href(`/workflow-states/${state.id}`));
}

/** Like the loaders of load.ts: a missing state and one in a hub the caller cannot see are the same 404. */
function loadWorkflowState(ctx: RequestContext, id = ctx.params.stateId!): WorkflowState {
  const state = workflowStates(ctx.db).get(id);
  if (!state) throw notFound('WorkflowState', id);
  ctx.authorize({ hubId: state.hubId }, 'WorkflowState', id);
  return state;
}
