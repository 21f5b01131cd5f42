// ESLint (flat config): the promise rules, with type information, the import boundaries of the layers that
// docs/architecture.md describes ("The lint rules that hold the boundaries"), and the bound on a function's length.
// `npm run lint` runs it, then dependency-cruiser for import circles (.dependency-cruiser.mjs); CI runs both before
// the tests. The rule set is kept small on purpose: correctness and structure, not style.
import { defineConfig } from 'eslint/config';
import tseslint from 'typescript-eslint';
import boundaries from 'eslint-plugin-boundaries';

/** The layers, by folder from the project's root; the first that matches a file names its layer. */
const layers = [
  { type: 'apiRoutes', pattern: 'api/routes' },
  // The Temporal clients of the API (api/temporalClients/) and the dispatcher of change effects that uses them: a
  // route reaches them only through a domain service's port.
  { type: 'apiTemporalClients', pattern: ['api/temporalClients', 'api/changeEffects'] },
  { type: 'api', pattern: 'api' },
  { type: 'worker', pattern: 'worker' },
  { type: 'workflows', pattern: 'workflows' },
  { type: 'activities', pattern: 'activities' },
  { type: 'identityProvider', pattern: 'identityProvider' },
  { type: 'store', pattern: 'store' },
  { type: 'domain', pattern: 'domain' },
  { type: 'platform', pattern: 'platform' },
  { type: 'test', pattern: 'test' },
  { type: 'bench', pattern: 'bench' },
  { type: 'scripts', pattern: 'scripts' },
].map((layer) => ({ ...layer, partialMatch: false }));

const layer = (...types) => ({ element: { types } });
/** Every backoff is one RetryPolicy: a leaf of domain/ that imports nothing, so platform/ may use it too. */
const retryPolicy = { element: { type: 'domain' }, file: { categories: 'retryPolicy' } };
const packages = (...sources) => ({ module: { origin: 'external', source: sources } });
const nodeBuiltIns = { module: { origin: 'core' } };
/** Packages of the layers above the domain: the HTTP server, Temporal, the ORM and the PostgreSQL driver. */
const infrastructurePackages = packages('koa', 'koa-*', '@koa/*', '@temporalio/*', '@mikro-orm/*', 'pg', 'pg-*');

/** The layers under api/ and worker/. */
const belowTheProcesses = ['workflows', 'activities', 'identityProvider', 'store', 'domain', 'platform'];

/** Who may import whom: everything not allowed here is an error. Later policies override earlier ones. */
const layerPolicies = [
  // Packages and Node's built-ins, for every layer; the disallow policies below narrow it.
  { allow: { to: [{ module: { origin: 'external' } }, nodeBuiltIns] } },
  { from: layer('domain'), allow: { to: layer('domain') } },
  {
    from: layer('domain'),
    disallow: { to: infrastructurePackages },
    message: 'domain/ is plain TypeScript: no Koa, Temporal, MikroORM or pg (docs/architecture.md)',
  },
  { from: layer('platform'), allow: { to: [layer('platform'), retryPolicy] } },
  { from: layer('store'), allow: { to: layer('domain', 'platform', 'store') } },
  { from: layer('identityProvider'), allow: { to: layer('domain', 'store', 'platform', 'identityProvider') } },
  { from: layer('workflows'), allow: { to: layer('workflows', 'domain') } },
  // The workflows are bundled into Temporal's sandbox: of the activities they see the types only.
  { from: layer('workflows'), allow: { to: layer('activities'), dependency: { kind: 'type' } } },
  {
    from: layer('workflows'),
    disallow: { to: nodeBuiltIns },
    message: 'workflows/ run in the Temporal sandbox: no Node built-ins (docs/architecture.md)',
  },
  // The activities sit under the workflows that call them: nothing of workflows/ (the words they share are domain/'s).
  { from: layer('activities'), allow: { to: layer('domain', 'identityProvider', 'store', 'platform', 'activities') } },
  // api/ (the routes aside) and worker/ compose their processes: every layer below them, but not each other.
  { from: layer('api', 'apiTemporalClients'), allow: { to: layer('api', 'apiRoutes', 'apiTemporalClients', ...belowTheProcesses) } },
  { from: layer('worker'), allow: { to: layer('worker', ...belowTheProcesses) } },
  // A route parses, calls a domain service and maps its errors: no store, no Temporal, no actor or stream client.
  {
    from: layer('apiRoutes'),
    allow: { to: layer('apiRoutes', 'api', 'identityProvider', 'domain', 'platform') },
  },
  {
    from: layer('apiRoutes'),
    disallow: { to: packages('@temporalio/*') },
    message: 'a route calls domain services only: no Temporal package (docs/architecture.md)',
  },
  { from: layer('test', 'bench', 'scripts'), allow: { to: layer(...layers.map(({ type }) => type)) } },
];

export default defineConfig(
  {
    ignores: ['node_modules/', '.tools/', '.data/', '.cache/', 'keycloak/extension/target/'],
  },
  {
    files: ['**/*.ts'],
    languageOptions: {
      parser: tseslint.parser,
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    plugins: { '@typescript-eslint': tseslint.plugin },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // A promise nobody awaits loses its rejection (an unhandled rejection ends the process).
      '@typescript-eslint/no-floating-promises': 'error',
      // A promise where a plain value or a void callback is expected: an `if (promise)`, an async listener.
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
      // `return promise` inside try skips its catch and finally: await it there.
      '@typescript-eslint/return-await': ['error', 'in-try-catch'],
      'no-async-promise-executor': 'error',
      '@typescript-eslint/no-array-delete': 'error',
      '@typescript-eslint/no-implied-eval': 'error',
      '@typescript-eslint/no-for-in-array': 'error',
      '@typescript-eslint/only-throw-error': 'error',
      'no-dupe-keys': 'error',
      'no-dupe-else-if': 'error',
      'no-duplicate-case': 'error',
      'no-self-assign': 'error',
      'no-self-compare': 'error',
      'no-unreachable': 'error',
      'no-unsafe-finally': 'error',
      'no-unsafe-negation': 'error',
      'no-unsafe-optional-chaining': 'error',
      'no-constant-binary-expression': 'error',
      'no-loss-of-precision': 'error',
      'no-compare-neg-zero': 'error',
      'no-cond-assign': 'error',
      'no-sparse-arrays': 'error',
      'no-unused-labels': 'error',
      'no-fallthrough': 'error',
      'use-isnan': 'error',
      'valid-typeof': 'error',
    },
  },
  // A workflow or an activity file holds what one family of its feature does (docs/architecture.md, "The tenant
  // actor"): past 400 lines, counting every line as "no file over 400 lines" reads, it is split by what it does.
  {
    files: ['workflows/**/*.ts', 'activities/**/*.ts'],
    rules: { 'max-lines': ['error', { max: 400, skipBlankLines: false, skipComments: false }] },
  },
  {
    files: ['**/*.ts'],
    plugins: { boundaries },
    settings: {
      'boundaries/elements': layers,
      'boundaries/files': [
        { category: 'retryPolicy', pattern: 'domain/retryPolicy.ts' },
      ],
      'boundaries/dependency-nodes': ['import', 'export', 'dynamic-import'],
      'boundaries/legacy-templates': false,
    },
    rules: {
      'boundaries/dependencies': ['error', { default: 'disallow', checkAllOrigins: true, checkInternals: false, policies: layerPolicies }],
    },
  },
  {
    // A function a reader cannot hold in view does several things: split it by what it does. Lines of code only, so
    // that a comment saying why never pushes a function over. Tests are left out: a test's setup reads top to bottom.
    files: ['**/*.ts'],
    ignores: ['test/**'],
    rules: { 'max-lines-per-function': ['error', { max: 120, skipBlankLines: true, skipComments: true }] },
  },
);
