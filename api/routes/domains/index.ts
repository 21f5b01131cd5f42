import { addDomainRoute } from './addDomain.ts';
import { listDomainsRoute } from './listDomains.ts';
import { removeDomainRoute } from './removeDomain.ts';
import { verifyDomainRoute } from './verifyDomain.ts';

export const domainRoutes = [addDomainRoute, listDomainsRoute, verifyDomainRoute, removeDomainRoute];
