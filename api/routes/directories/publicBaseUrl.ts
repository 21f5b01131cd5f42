import type { AppContext } from '../../appDependencies.ts';

/** Where the service is reached from outside (PUBLIC_BASE_URL, else its own address), for the SCIM base URLs it hands out. */
export const publicBaseUrl = (deps: AppContext): string => deps.settings.PUBLIC_BASE_URL ?? `http://127.0.0.1:${deps.settings.PORT}`;
