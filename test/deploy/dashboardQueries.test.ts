/**
 * The Grafana dashboard (deploy/grafana/) and the alert rules (deploy/prometheus/) ask only for metrics the service
 * exports: the real API and worker are started, their /metrics scraped, and every query parsed with Prometheus' own
 * PromQL grammar (@prometheus-io/lezer-promql) for the metric names it selects. A histogram or summary counts by
 * its series' names (_bucket, _sum, _count). And every alert has its promtool unit test.
 */
import { randomUUID } from 'node:crypto';
import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parser } from '@prometheus-io/lezer-promql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { freePort } from '../../platform/freePort.ts';
import { eventually } from '../support/eventually.ts';
import { spawnApi, type ApiProcess } from '../support/spawnApi.ts';
import { spawnWorker } from '../support/spawnWorker.ts';

const root = resolve(import.meta.dirname, '..', '..');
const dashboard = JSON.parse(readFileSync(resolve(root, 'deploy/grafana/tenant-registry.json'), 'utf8'));
type Rules = { groups: { rules: { alert?: string; expr: string }[] }[] };
const rules = parse(readFileSync(resolve(root, 'deploy/prometheus/tenant-registry.rules.yml'), 'utf8')) as Rules;
const ruleTests = parse(readFileSync(resolve(root, 'deploy/prometheus/tests/tenant-registry.test.yml'), 'utf8')) as {
  tests: { alert_rule_test?: { alertname: string; exp_alerts: unknown[] }[] }[];
};

let api: ApiProcess;
let worker: ChildProcess;
const ports = { api: 0, worker: 0 };

beforeAll(async () => {
  const taskQueue = `dashboard-${randomUUID()}`;
  ports.api = await freePort();
  ports.worker = await freePort();
  worker = spawnWorker(taskQueue, { WORKER_METRICS_PORT: String(ports.worker) });
  api = await spawnApi({ TEMPORAL_TASK_QUEUE: taskQueue, METRICS_PORT: String(ports.api), PROVISIONING_WAIT_MS: '20000' });
  await eventually(async () => (await fetch(`http://127.0.0.1:${ports.worker}/readyz`).catch(() => undefined))?.status === 200, 90_000, 'the worker ready');
  // One tenant provisioned: the series that only work makes (the SDK's task latencies, provisioning outcomes) exist.
  const created = await fetch(`${api.base}/v1/tenants`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ slug: `dashboard-${Date.now().toString(36)}`, name: 'Dashboard', admin_email: `admin-${randomUUID()}@example.com` }),
  });
  expect(created.status).toBe(201);
  await eventually(async () => /^tenant_registry_provisioning_outcomes_total\{/m.test(await (await fetch(`http://127.0.0.1:${ports.worker}/metrics`)).text()), 30_000, 'the provisioning counted');
}, 180_000);
afterAll(() => {
  api?.child.kill('SIGTERM');
  worker?.kill('SIGTERM');
});

/** The names of every series an exposition holds or declares (# TYPE), a histogram's and a summary's by their suffixes. */
function exportedNames(text: string): Set<string> {
  const names = new Set<string>();
  for (const line of text.split('\n')) {
    const declared = /^# TYPE ([a-zA-Z_:][a-zA-Z0-9_:]*) (\w+)$/.exec(line);
    if (declared) {
      const [, name, type] = declared as unknown as [string, string, string];
      names.add(name);
      if (type === 'histogram') for (const suffix of ['_bucket', '_sum', '_count']) names.add(name + suffix);
      if (type === 'summary') for (const suffix of ['_sum', '_count']) names.add(name + suffix);
      continue;
    }
    const sample = /^([a-zA-Z_:][a-zA-Z0-9_:]*)[{ ]/.exec(line);
    if (sample) names.add(sample[1]!);
  }
  return names;
}

/** Grafana's interval variables stand for a duration; PromQL's grammar knows none of them. */
const asPromQL = (expr: string) => expr.replace(/\$__(rate_interval|interval|range)\b/g, '5m');

/** The metric names a query selects, by Prometheus' grammar; a query it cannot parse fails the test. */
function selectedMetrics(expr: string): string[] {
  const text = asPromQL(expr);
  const tree = parser.parse(text);
  const names: string[] = [];
  const errors: number[] = [];
  tree.iterate({
    enter(node) {
      if (node.type.isError) errors.push(node.from);
      if (node.name === 'VectorSelector') {
        const identifier = node.node.getChild('Identifier');
        if (identifier) names.push(text.slice(identifier.from, identifier.to));
      }
    },
  });
  expect(errors, `PromQL that does not parse: ${expr}`).toEqual([]);
  return names;
}

type Panel = { title?: string; targets?: { expr?: string }[]; panels?: Panel[] };
const panelsOf = (panels: Panel[]): Panel[] => panels.flatMap((panel) => [panel, ...panelsOf(panel.panels ?? [])]);
const dashboardQueries = panelsOf(dashboard.panels as Panel[]).flatMap((panel) =>
  (panel.targets ?? []).map((target) => ({ where: `panel "${panel.title}"`, expr: target.expr ?? '' })),
);
const ruleQueries = rules.groups.flatMap((group) => group.rules.map((rule) => ({ where: `alert ${rule.alert}`, expr: rule.expr })));

describe('the dashboard and the alert rules', () => {
  it('select only metrics that a running API or worker exports', async () => {
    const scrape = async (port: number) => (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
    const exported = new Set([...exportedNames(await scrape(ports.api)), ...exportedNames(await scrape(ports.worker))]);
    expect(dashboardQueries.length).toBeGreaterThan(20);
    const missing: string[] = [];
    for (const { where, expr } of [...dashboardQueries, ...ruleQueries]) {
      const names = selectedMetrics(expr);
      expect(names.length, `${where} selects no metric: ${expr}`).toBeGreaterThan(0);
      for (const name of names) if (!exported.has(name)) missing.push(`${where}: ${name}`);
    }
    expect(missing).toEqual([]);
  });

  it('read a query with a metric nobody exports as missing (the check above can fail)', () => {
    expect(selectedMetrics('sum(rate(tenant_registry_no_such_metric_total[$__rate_interval])) / on() group_left tenant_registry_other')).toEqual([
      'tenant_registry_no_such_metric_total',
      'tenant_registry_other',
    ]);
    expect(exportedNames('# TYPE a_seconds histogram\na_seconds_bucket{le="1"} 0\nb_total 3\n')).toEqual(new Set(['a_seconds', 'a_seconds_bucket', 'a_seconds_sum', 'a_seconds_count', 'b_total']));
  });

  it('give every alert a unit test in which it fires', () => {
    const alerts = ruleQueries.map(({ where }) => where.replace('alert ', ''));
    const firing = new Set(ruleTests.tests.flatMap((test) => (test.alert_rule_test ?? []).filter((t) => t.exp_alerts.length > 0).map((t) => t.alertname)));
    const silent = new Set(ruleTests.tests.flatMap((test) => (test.alert_rule_test ?? []).filter((t) => t.exp_alerts.length === 0).map((t) => t.alertname)));
    expect(alerts.filter((alert) => !firing.has(alert))).toEqual([]);
    // And a moment in which it does not, so a rule that always fires fails its test.
    expect(alerts.filter((alert) => !silent.has(alert))).toEqual([]);
  });
});
