import { appendAuditEventRoute } from './appendAuditEvent.ts';
import { checkAuditIntegrityRoute } from './checkAuditIntegrity.ts';
import { createAuditStreamRoute } from './createAuditStream.ts';
import { deleteAuditStreamRoute } from './deleteAuditStream.ts';
import { exportAuditEventsRoute } from './exportAuditEvents.ts';
import { listAuditEventsRoute } from './listAuditEvents.ts';
import { listAuditStreamsRoute } from './listAuditStreams.ts';

export const auditRoutes = [
  appendAuditEventRoute,
  listAuditEventsRoute,
  exportAuditEventsRoute,
  checkAuditIntegrityRoute,
  createAuditStreamRoute,
  listAuditStreamsRoute,
  deleteAuditStreamRoute,
];
