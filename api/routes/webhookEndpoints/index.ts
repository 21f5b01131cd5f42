import { createWebhookEndpointRoute } from './createWebhookEndpoint.ts';
import { deleteWebhookEndpointRoute } from './deleteWebhookEndpoint.ts';
import { getWebhookEndpointRoute } from './getWebhookEndpoint.ts';
import { listWebhookEndpointsRoute } from './listWebhookEndpoints.ts';
import { replayWebhookEndpointRoute } from './replayWebhookEndpoint.ts';
import { rotateWebhookSecretRoute } from './rotateWebhookSecret.ts';
import { updateWebhookEndpointRoute } from './updateWebhookEndpoint.ts';

export const webhookEndpointRoutes = [
  createWebhookEndpointRoute,
  listWebhookEndpointsRoute,
  getWebhookEndpointRoute,
  updateWebhookEndpointRoute,
  deleteWebhookEndpointRoute,
  rotateWebhookSecretRoute,
  replayWebhookEndpointRoute,
];
