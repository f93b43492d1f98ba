import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

export default tseslint.config(
  { ignores: ['dist', 'dist-*', 'node_modules', 'test-results', 'playwright-report', 'public/models', 'bench/results', 'scratch-*'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // Test scaffolding (fixtures, tiny projects, zips) lives in src/testing; app code never imports it.
    files: ['src/**/*.{ts,tsx}'],
    ignores: ['**/*.test.{ts,tsx}', 'src/testing/**'],
    rules: {
      'no-restricted-imports': ['error', { patterns: ['*/testing/*'] }],
    },
  },
  {
    // The team server is Node only (docs/server.md): the app never imports it (the server may import pure code from src/).
    files: ['src/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-syntax': ['error', { selector: 'ImportDeclaration[source.value=/(^|\\/)server\\//]', message: 'src/ runs in the browser; it may not import the server (server/).' }],
    },
  },
  {
    // The pure rooms run in workers, Node and the CLI: keep the DOM, React and Dexie out of them.
    files: ['src/masks/**/*.ts', 'src/metrics/**/*.ts', 'src/demo/**/*.ts', 'src/rpc/**/*.ts'],
    ignores: ['**/*.test.ts', 'src/metrics/panels/**', 'src/demo/encodeVideo.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: ['react', 'react-dom', 'dexie', 'konva', '*/store/*', '*/app/*', '*/workspace/*', '*/testing/*'] }],
    },
  },
  {
    // The annotator is a foundation the other rooms build on; they plug into its slots
    // (src/annotator/ui/editorSlots.ts) from src/app/editor, never the other way round.
    files: ['src/annotator/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': ['error', { patterns: ['*/app/*', '*/review/*', '*/metrics/*', '*/inference/*'] }],
    },
  },
  {
    // The annotator's app code: both rules above at once (a later block replaces a rule's options).
    files: ['src/annotator/**/*.{ts,tsx}'],
    ignores: ['**/*.test.{ts,tsx}'],
    rules: {
      'no-restricted-imports': ['error', { patterns: ['*/app/*', '*/review/*', '*/metrics/*', '*/inference/*', '*/testing/*'] }],
    },
  },
);
