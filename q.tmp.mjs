import pg from 'pg';
const c = new pg.Client('postgres://postgres:postgres@127.0.0.1:37821/tenant_registry'); await c.connect();
const r = await c.query(process.argv[2]); console.log(JSON.stringify(r.rows, null, 1).slice(0, 3000)); await c.end();
