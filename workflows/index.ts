/** Entry point of the workflow bundle: every workflow type the worker registers. */
export { tenantActorWorkflow } from './tenantActor/tenantActorWorkflow.ts';
export { auditStreamWorkflow } from './auditStream/auditStreamWorkflow.ts';
export { retentionWorkflow } from './retention/retentionWorkflow.ts';
export { webhookDeliveryWorkflow } from './webhookDelivery/webhookDeliveryWorkflow.ts';
