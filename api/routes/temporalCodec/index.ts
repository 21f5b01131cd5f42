import { codecRoute } from './codecRoute.ts';

export const temporalCodecRoutes = [codecRoute('decode'), codecRoute('encode')];
