/** Entry point of the workflow bundle: every workflow type the worker registers. */
export { tenantActorWorkflow } from './tenantActorWorkflow.ts';
export { auditStreamWorkflow } from './auditStreamWorkflow.ts';
