import { ProxyTracerProvider, SpanStatusCode, context, trace, type Context, type Span, type Tracer } from '@opentelemetry/api';
import { getRandomStream } from '@temporalio/workflow';

/**
 * The tenant actor's own spans, one per command it handles, so that no span of the actor is an orphan in a trace
 * viewer. Temporal's workflow interceptor (@temporalio/interceptors-opentelemetry) makes each activity a child of the
 * context active where it is scheduled; in the actor's run loop that is the run's own span (RunWorkflow), which ends
 * only when the run ends (it continues as new after hundreds of commands, or never) and so is not exported for as
 * long as the actor lives. Here each command runs in a span `TenantActor:<kind>` whose parent is the span of the
 * request that enqueued it (the signal or update handler's, itself a child of the API's client span), and the
 * activities it schedules are its children. What a command leaves for later (the timeline read after it) runs in a
 * child of the command's span; work no request caused (a timer that fired, the read at the start of a run) in a root
 * span: a trace of its own.
 *
 * Workflow code, for the sandbox: the OpenTelemetry API's global tracer provider and context manager there are the
 * ones the interceptor registers in each workflow (a BasicTracerProvider whose spans leave through the worker's span
 * sink, only once the activation is not a replay; an AsyncLocalStorage context). A worker without the interceptors
 * registers none: every function here then runs the work as given and touches nothing else.
 *
 * Deterministic: a span's start and end take the workflow's clock; its ids come from a random stream of its own
 * (derived from the run's seed and a fixed name), so the spans never draw from the workflow's Math.random, and a
 * history replays the same with tracing on or off. No span adds a command to the history, and the work's promise is
 * handed back as it is: the caller resumes at the same point of the activation, traced or not.
 */

const TRACER_NAME = 'tenant-registry/tenant-actor';
const SPAN_PREFIX = 'TenantActor:';

/**
 * The context of the request that enqueued each command, by the command object itself (the queue holds it until
 * `run` takes it). Never in the actor's state, a query's answer or continue-as-new's input: those serialize, a
 * context does not. The commands a run hands on to the next one (continue-as-new) therefore lose their request's
 * span, and each runs in a root span of its own; carrying the traceparent over in the input was not worth the
 * input's shape for a command that rarely waits across a continue-as-new.
 */
const requests = new WeakMap<object, Context>();
/** The span each handled command ran in, by the command, for the work it leaves for later (inFollowUpSpan). */
const handled = new WeakMap<object, Context>();

/** The tracer of the provider Temporal's interceptor registered in this workflow; undefined when none is. */
function tracer(): Tracer | undefined {
  const provider = trace.getTracerProvider();
  // The API's proxy answers a no-op tracer when no provider is registered; asked for its delegate's, it answers none.
  return provider instanceof ProxyTracerProvider ? provider.getDelegateTracer(TRACER_NAME) : provider.getTracer(TRACER_NAME);
}

/**
 * Remembers the active context (in a signal or update handler: the handler's span) as the request that enqueued
 * `command`. Call it where the handler puts the command on the queue.
 */
export function rememberRequest(command: object): void {
  if (tracer()) requests.set(command, context.active());
}

/**
 * Runs a queued command's handling in span `TenantActor:<kind>`, a child of the request that enqueued it
 * (rememberRequest); a root span when none was remembered (a command carried over a continue-as-new).
 */
export function inCommandSpan<T>(command: { kind: string }, handle: () => Promise<T>): Promise<T> {
  const t = tracer();
  if (!t) return handle();
  const parent = requests.get(command);
  requests.delete(command);
  return inSpan(t, `${SPAN_PREFIX}${command.kind}`, parent, { 'tenantActor.command': command.kind }, handle, (span) => handled.set(command, span));
}

/**
 * Runs work that a handled command left for later (the timeline read after what it changed) in span
 * `TenantActor:<work>`, a child of that command's span: a root span when `after` is undefined (nothing came before:
 * the read at the start of a run) or ran untraced.
 */
export function inFollowUpSpan<T>(after: object | undefined, work: string, handle: () => Promise<T>): Promise<T> {
  const t = tracer();
  if (!t) return handle();
  const parent = after && handled.get(after);
  if (after) handled.delete(after);
  return inSpan(t, `${SPAN_PREFIX}${work}`, parent, {}, handle);
}

/** Runs work that no request caused (a timer that fired) in root span `TenantActor:<work>`: a trace of its own. */
export function inRootSpan<T>(work: string, handle: () => Promise<T>): Promise<T> {
  const t = tracer();
  if (!t) return handle();
  return inSpan(t, `${SPAN_PREFIX}${work}`, undefined, {}, handle);
}

/** The random stream span ids are drawn from (see the module). Created on first use, in workflow context. */
let spanIds: ReturnType<typeof getRandomStream> | undefined;

function inSpan<T>(
  t: Tracer,
  name: string,
  parent: Context | undefined,
  attributes: Record<string, string>,
  handle: () => Promise<T>,
  started: (span: Context) => void = () => {},
): Promise<T> {
  // Without a parent, not the run's span (the active one here), whose trace would hold it unexported: a root.
  const options = { attributes, root: parent === undefined };
  spanIds ??= getRandomStream(TRACER_NAME);
  const span = spanIds.with(() => t.startSpan(name, options, parent ?? context.active()));
  const active = trace.setSpan(parent ?? context.active(), span);
  started(active);
  let result: Promise<T>;
  try {
    result = context.with(active, handle);
  } catch (error) {
    endFailed(span, error);
    throw error;
  }
  // Ends the span beside the caller's own await of the same promise: no extra turn before the caller resumes.
  result.then(
    () => {
      span.setStatus({ code: SpanStatusCode.OK });
      span.end();
    },
    (error: unknown) => endFailed(span, error),
  );
  return result;
}

function endFailed(span: Span, error: unknown): void {
  span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
  if (error instanceof Error) span.recordException(error);
  span.end();
}
