// ESLint: the recommended rules of ESLint and typescript-eslint (syntax only, no type information: see
// docs/development.md), typescript-eslint's stylistic set, and rules the code already follows. Layout is
// Prettier's job (.prettierrc.json), so eslint-config-prettier comes last and switches off rules it would fight.
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import { defineConfig, globalIgnores } from 'eslint/config';
import globals from 'globals';
import tseslint from 'typescript-eslint';

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
    files: ['test/**/*.ts'],
    rules: {
      // Tests poke at untyped JSON bodies, OpenAPI documents and DOM nodes (the tests compile without DOM
      // types); an unexpected shape fails the assertion that reads it.
      '@typescript-eslint/no-explicit-any': 'off',
    },
  },
  prettier,
);
