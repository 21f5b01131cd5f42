// The process settings first (platform/serviceProcessSettings.ts): the process re-executes itself with them before
// the worker's modules are loaded, so that loading is done once, by the process that runs.
import '../platform/serviceProcessSettings.ts';

await import('./workerProcess.ts');
