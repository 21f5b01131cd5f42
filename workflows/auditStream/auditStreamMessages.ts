import { defineQuery } from '@temporalio/workflow';

/** Shared by the stream workflow, its activity and its starter in the API, so names and payloads cannot drift apart. */
export const auditStreamWorkflowId = (streamId: string) => `audit-stream-${streamId}`;

export interface AuditStreamInput {
  streamId: string;
  /** Events with ids above this are delivered next. */
  afterId: number;
}

export const auditStreamStateQuery = defineQuery<{ deliveredThroughId: number }>('state');
