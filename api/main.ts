// The process settings first (platform/serviceProcessSettings.ts): the process re-executes itself with them before
// the API's modules are loaded, so that loading is done once, by the process that runs.
import { API_PROCESS_SETTINGS, applyServiceProcessSettings } from '../platform/serviceProcessSettings.ts';

applyServiceProcessSettings(API_PROCESS_SETTINGS);
await import('./apiProcess.ts');
