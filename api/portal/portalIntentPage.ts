import type { Readable } from 'node:stream';
import type { TenantReach } from '../../domain/access/tenantReach.ts';
import type { PortalSessionRecord } from '../../domain/portal/portalRecords.ts';
import type { RequestMeta } from '../../domain/requestMeta.ts';
import type { AppContext } from '../appDependencies.ts';
import type { FieldErrors } from './portalForms.ts';
import type { SafeHtml } from './portalHtml.ts';

/** What a portal page runs with: the session's tenant, and the session as the actor of every change. */
export interface PortalScope {
  deps: AppContext;
  session: PortalSessionRecord;
  tenant: { id: string; name: string; slug: string };
  meta: RequestMeta;
  reach: TenantReach;
  csrf: string;
}

/** What the page shows besides its data: the notice of an action done, a refused form's errors and what was typed. */
export interface PortalViewState {
  notice?: string;
  errors?: FieldErrors;
  values?: URLSearchParams;
  query: URLSearchParams;
}

/**
 * An action's outcome: done (the page is shown again by a redirect, with the notice named by `done`), refused (the
 * page again with the form's errors beside its fields, 400), or a page of its own (a secret shown this once).
 */
export type PortalActionResult = { done: string } | { errors: FieldErrors; values: URLSearchParams } | { body: SafeHtml; notice: string };

/** One intent's page: what it lists and its forms, the actions they post to, and what a download streams. */
export interface PortalIntentPage {
  title: string;
  /** Texts of the notices actions name by code (never text from the request: a link cannot make the page say anything). */
  notices: Record<string, string>;
  view(scope: PortalScope, state: PortalViewState): Promise<SafeHtml>;
  actions: Record<string, (scope: PortalScope, form: URLSearchParams) => Promise<PortalActionResult>>;
  /** Files the page links to (GET /portal/<intent>/<name>), streamed. */
  downloads?: Record<string, (scope: PortalScope, query: URLSearchParams) => Promise<{ contentType: string; filename: string; body: Readable }>>;
}
