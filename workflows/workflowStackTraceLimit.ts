/**
 * Preloaded into the workflow sandbox before the SDK freezes its globals (bundleWorkflows' preloadModules): no stack
 * is captured for errors made in workflow code. The SDK's promise hook makes an Error and formats its stack through
 * the bundle's source map for every promise a workflow creates, for its stack-trace query; that was a large share of
 * the worker's CPU per tenant creation (issue #19). With no frames to capture it records nothing, so the query answers
 * empty; where an actor waits is in its state query and its history, and activity failures keep their stacks (they
 * are made outside the sandbox).
 */
Error.stackTraceLimit = 0;
