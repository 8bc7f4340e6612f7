// ESLint: the recommended rules of ESLint and typescript-eslint (syntax only, no type information: see
// docs/development.md), typescript-eslint's stylistic set, and rules the code already follows. Layout is
// Prettier's job (.prettierrc.json), so eslint-config-prettier comes last and switches off rules it would fight.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import js from '@eslint/js';
import boundaries from 'eslint-plugin-boundaries';
import prettier from 'eslint-config-prettier';
import { defineConfig, globalIgnores } from 'eslint/config';
import globals from 'globals';
import tseslint from 'typescript-eslint';

// The top-level folders of src/ in layers, lowest first: a folder imports only folders of lower layers
// (and its own files), so no two folders can depend on each other, directly or round a loop. A new
// import that the layers forbid fails the lint: move the shared part down (as search-index/ was), or
// move the importing folder up a layer if nothing below it depends on it.
const FOLDER_LAYERS = [
  ['common', 'config'],
  ['database', 'import-formats', 'lifecycle', 'rate-limit'],
  ['api-key', 'health', 'map-data', 'metrics', 'search-index'],
  ['imagery', 'logging', 'openapi', 'places', 'tiles'],
  ['map-style', 'photos'],
  ['search', 'seed'],
  ['demo-image', 'stac', 'startup', 'streetview', 'web-page'],
  ['cli'],
];
// A folder missing from the layers would be free to import anything: refuse to lint until it is placed.
const SRC = join(import.meta.dirname, 'src');
const unlayered = readdirSync(SRC, { withFileTypes: true }).filter(
  (entry) =>
    entry.isDirectory() &&
    !FOLDER_LAYERS.flat().includes(entry.name) &&
    readdirSync(join(SRC, entry.name), { recursive: true }).some((file) => String(file).endsWith('.ts')),
);
if (unlayered.length > 0) {
  throw new Error(`eslint.config.mjs: add src/${unlayered[0].name} to FOLDER_LAYERS`);
}
const folderBoundaries = {
  files: ['src/**/*.ts'],
  plugins: { boundaries },
  settings: {
    'import/resolver': { node: { extensions: ['.ts', '.js', '.json'] } },
    // app.ts, app.module.ts and main.ts (the entry points, above every folder) belong to no folder: free.
    'boundaries/elements': FOLDER_LAYERS.flat().map((folder) => ({ type: folder, pattern: `src/${folder}` })),
  },
  rules: {
    'boundaries/dependencies': [
      'error',
      {
        default: 'disallow',
        policies: [
          ...FOLDER_LAYERS.flatMap((layer, level) =>
            layer.map((folder) => ({
              from: { element: { type: folder } },
              allow: { to: { element: { types: { anyOf: [folder, ...FOLDER_LAYERS.slice(0, level).flat()] } } } },
            })),
          ),
        ],
      },
    ],
  },
};

export default defineConfig(
  globalIgnores(['dist/', 'coverage/', 'test-results/', 'bench-results/', '.data/']),
  js.configs.recommended,
  tseslint.configs.recommended,
  tseslint.configs.stylistic,
  {
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // Both `T[]` and `Array<T>` are used, whichever reads better at the place.
      '@typescript-eslint/array-type': 'off',
      // A decorated DTO property needs its type written out: decorator metadata records `Object` without it.
      '@typescript-eslint/no-inferrable-types': ['error', { ignoreProperties: true }],
      // `const { dropped: _, ...rest } = row` leaves a field out of a copy; `for await (const _ of rows)` drains.
      '@typescript-eslint/no-unused-vars': ['error', { ignoreRestSiblings: true, varsIgnorePattern: '^_' }],
      // `import type` beside a value import from the same module is fine.
      'no-duplicate-imports': ['error', { allowSeparateTypeImports: true }],
      eqeqeq: ['error', 'smart'],
      'dot-notation': 'error',
      'no-caller': 'error',
      'no-constructor-return': 'error',
      'no-eval': 'error',
      'no-extend-native': 'error',
      'no-implied-eval': 'error',
      'no-labels': 'error',
      'no-lone-blocks': 'error',
      'no-lonely-if': 'error',
      'no-multi-assign': 'error',
      'no-new-func': 'error',
      'no-new-wrappers': 'error',
      'no-return-assign': ['error', 'except-parens'],
      'no-self-compare': 'error',
      'no-sequences': 'error',
      'no-throw-literal': 'error',
      'no-unmodified-loop-condition': 'error',
      'no-unneeded-ternary': 'error',
      'no-unreachable-loop': 'error',
      'no-useless-call': 'error',
      'no-useless-concat': 'error',
      'no-useless-rename': 'error',
      'no-useless-return': 'error',
      'object-shorthand': 'error',
      'operator-assignment': 'error',
      'prefer-arrow-callback': 'error',
      'prefer-exponentiation-operator': 'error',
      'prefer-numeric-literals': 'error',
      'prefer-object-has-own': 'error',
      'prefer-regex-literals': 'error',
      radix: 'error',
      yoda: 'error',
    },
  },
  {
    // Plain JavaScript here runs on Node: the build scripts and the jest configuration (CommonJS).
    files: ['**/*.{js,cjs,mjs}'],
    languageOptions: { globals: globals.node },
  },
  {
    files: ['**/*.{js,cjs}'],
    languageOptions: { sourceType: 'commonjs' },
  },
  {
    files: ['web/src/**/*.ts'],
    languageOptions: { globals: globals.browser },
  },
  {
    // A function a reader can hold in view: longer ones are split into parts worth naming.
    files: ['src/**/*.ts', 'web/src/**/*.ts'],
    // Comments and blank lines count: a function's explanation is part of what the reader holds.
    rules: { 'max-lines-per-function': ['error', { max: 80, skipBlankLines: false, skipComments: false }] },
  },
  {
    files: ['test/**/*.ts'],
    rules: {
      // Tests poke at untyped JSON bodies, OpenAPI documents and DOM nodes (the tests compile without DOM
      // types); an unexpected shape fails the assertion that reads it.
      '@typescript-eslint/no-explicit-any': 'off',
    },
  },
  folderBoundaries,
  prettier,
);
