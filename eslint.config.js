// Lint rules for the whole tree (`npm run lint`, part of `npm test`).
//
// typescript-eslint's `recommended` set, syntax only. The type-aware set was measured here and
// left out: it builds a full TypeScript program (~47 s CPU and 1.4 GB on this tree against ~9 s
// without), and `tsc --noEmit` already checks the types in `npm test`.
import js from '@eslint/js';
import {defineConfig} from 'eslint/config';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default defineConfig(
  {ignores: ['dist/', 'node_modules/', '.bench-data/']},
  // A disable comment that no longer silences anything is itself a finding.
  {linterOptions: {reportUnusedDisableDirectives: 'error'}},
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    rules: {
      // Terminal text is the subject here: stripping ANSI escapes and C0/C1 controls from process
      // output and feeds needs control characters in regular expressions.
      'no-control-regex': 'off',
      // A leading underscore marks a value left unused on purpose: a parameter a signature needs,
      // a property taken out of a spread (`{raw: _raw, ...rest}`), a caught error.
      '@typescript-eslint/no-unused-vars': [
        'error',
        {argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_', ignoreRestSiblings: true},
      ],
    },
  },
  {
    // The rules of hooks for the ink TUI and the CLI's components. The plugin's React Compiler
    // rules (`refs`, `set-state-in-effect`, `immutability`, …) are not turned on: they judge code
    // by what the compiler can memoise, nothing here is compiled by it, and the TUI reads
    // the latest props through refs on purpose (`useKeypress`, as in gemini-cli); they also
    // doubled the lint time.
    files: ['**/*.{ts,tsx}'],
    plugins: {'react-hooks': reactHooks},
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
    },
  },
  {
    files: ['**/*.{js,mjs,cjs}'],
    languageOptions: {globals: {...globals.node}},
  },
  {
    // The dev proxy's page script runs in the browser (bundled by scripts/page-script.mjs).
    files: ['source/devproxy/page/**/*.ts'],
    languageOptions: {globals: {...globals.browser}},
  },
);
