/** The part of autocannon 8's API the benchmark uses (the package ships no types). */
declare module 'autocannon' {
  import type { EventEmitter } from 'node:events';

  interface Request {
    method?: string;
    path?: string;
    body?: string;
    headers?: Record<string, string>;
    setupRequest?: (request: Record<string, unknown>, context: Record<string, unknown>) => Record<string, unknown>;
  }
  interface Client {
    setRequests(requests: Request[]): void;
  }
  interface Options {
    url: string;
    connections?: number;
    duration?: number;
    amount?: number;
    overallRate?: number;
    timeout?: number;
    requests?: Request[];
    setupClient?: (client: Client) => void;
    verifyBody?: (body: string) => boolean;
  }
  interface Result {
    mismatches: number;
    errors: number;
    timeouts: number;
    non2xx: number;
  }
  type Instance = EventEmitter & PromiseLike<Result> & { stop(): void };
  export default function autocannon(options: Options): Instance;
}
