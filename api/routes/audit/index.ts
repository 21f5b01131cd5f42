import { appendAuditEventRoute } from './appendAuditEvent.ts';
import { checkAuditIntegrityRoute } from './checkAuditIntegrity.ts';
import { exportAuditEventsRoute } from './exportAuditEvents.ts';
import { listAuditEventsRoute } from './listAuditEvents.ts';

export const auditRoutes = [appendAuditEventRoute, listAuditEventsRoute, exportAuditEventsRoute, checkAuditIntegrityRoute];
