import { defineQuery, defineSignal } from '@temporalio/workflow';

/** Shared by the delivery workflow, its activities and its starter in the API, so names and payloads cannot drift apart. */
export const webhookDeliveryWorkflowId = (endpointId: string) => `webhook-endpoint-${endpointId}`;

export interface WebhookDeliveryInput {
  endpointId: string;
  /** Events with higher sequences are delivered next. */
  afterSequence: number;
  /** The endpoint's replay generation the cursor belongs to. */
  replayGeneration: number;
  /** Carried across continue-as-new: when the failures began (workflow time) and how many attempts have failed. */
  failingSince?: number;
  failures?: number;
}

/** The endpoint changed (replay, re-enabled, new url, deleted): a backoff's wait ends and delivery looks again. */
export const webhookWakeSignal = defineSignal('wake');

export interface WebhookDeliveryState {
  afterSequence: number;
  replayGeneration: number;
  failures: number;
  failingSince?: number;
}

export const webhookDeliveryStateQuery = defineQuery<WebhookDeliveryState>('state');
