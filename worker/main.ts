// The process settings first (platform/serviceProcessSettings.ts): the process re-executes itself with them before
// the worker's modules are loaded, so that loading is done once, by the process that runs.
import { applyServiceProcessSettings, WORKER_PROCESS_SETTINGS } from '../platform/serviceProcessSettings.ts';

applyServiceProcessSettings(WORKER_PROCESS_SETTINGS);
await import('./workerProcess.ts');
