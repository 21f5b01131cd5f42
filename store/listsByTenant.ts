/**
 * The rows of a `tenants left join …` statement grouped by tenant: every tenant found has a list, an empty one when
 * the joined side is null (a tenant without entitlements or keys); a tenant not found has none.
 */
export function listsByTenant<Row, Item>(rows: Row[], tenantOf: (row: Row) => string, itemOf: (row: Row) => Item | undefined): Map<string, Item[]> {
  const lists = new Map<string, Item[]>();
  for (const row of rows) {
    const tenant = tenantOf(row);
    let list = lists.get(tenant);
    if (!list) lists.set(tenant, (list = []));
    const item = itemOf(row);
    if (item !== undefined) list.push(item);
  }
  return lists;
}
