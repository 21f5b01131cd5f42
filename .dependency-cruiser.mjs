// dependency-cruiser, run by `npm run lint` after ESLint: no file imports one that imports it back, directly or round
// a loop, type-only imports included (docs/architecture.md, "The lint rules that hold the boundaries"). ESLint's
// boundaries rule holds the layers; this holds the files within them, which ESLint's import plugins cannot do for
// types (their no-cycle rules skip `import type`).
/** @type {import('dependency-cruiser').IConfiguration} */
export default {
  forbidden: [
    {
      name: 'no-import-circle',
      severity: 'error',
      comment: 'A file that imports one that imports it back: move what both need into a file both may read (docs/architecture.md).',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    // Type-only imports are arrows of the design too: a circle of types is still a circle.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|\\.tools|\\.data|\\.cache|keycloak/extension/target)/' },
  },
};
