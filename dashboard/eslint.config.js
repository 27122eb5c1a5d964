// Lint of the dashboard, run by `npm test` (docs/dashboard.md: Code checks).
// The import boundaries (rule `boundaries/imports`, below), from the bottom up:
//   lib/         the base query, session, helpers: imports only lib/;
//   api/         one file per entity (its endpoints, injected into lib/api.ts, and its types):
//                imports only lib/ and api/;
//   components/  shared UI: imports lib/, api/ and components/, never a feature;
//   features/X/  imports lib/, api/, components/ and its own files, never another feature (nor
//                app/, except its tests, which render with the app's store and providers);
//   app/ and main.tsx wire everything together.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const SRC = fileURLToPath(new URL('./src', import.meta.url));

/** The part of src/ a file belongs to: 'lib', 'api', 'components', 'features/<name>', 'app',
 * or null outside those (the entry point, tests' helpers, files outside src/). */
function partOf(file) {
  const [top, second] = path.relative(SRC, file).split(path.sep);
  if (top === 'features') return second ? `features/${second}` : null;
  return ['lib', 'api', 'components', 'app'].includes(top) ? top : null;
}

/** What each part may import besides packages and itself (features: their own files only). */
const ALLOWED = {
  lib: ['lib'],
  api: ['lib', 'api'],
  components: ['lib', 'api', 'components'],
};
const MESSAGES = {
  lib: 'lib/ imports only lib/ (the base query, session and helpers sit below everything else).',
  api: 'api/ imports only lib/ and api/ (never components or features).',
  components: 'components/ imports lib/, api/ and components/, never features/ or app/ (move the shared code down instead).',
  feature: 'Features do not import each other or app/: take endpoints from src/api and shared code from components/ or lib/.',
};

/** Where an import points in src/ (the `@/` alias or a relative path), or null for packages. */
function target(source, importer) {
  if (source.startsWith('@/')) return path.join(SRC, source.slice(2));
  if (source.startsWith('.')) return path.resolve(path.dirname(importer), source);
  return null;
}

const boundaries = {
  rules: {
    imports: {
      meta: { type: 'problem', schema: [] },
      create(context) {
        const from = partOf(context.filename);
        if (!from || from === 'app') return {};
        const isTest = path.relative(SRC, context.filename).split(path.sep).includes('tests');
        function check(node) {
          const to = node.source && target(String(node.source.value), context.filename);
          const part = to && partOf(to);
          if (!part || part === from) return;
          if (from.startsWith('features/')) {
            if (part.startsWith('features/') || (part === 'app' && !isTest)) context.report({ node, message: MESSAGES.feature });
          } else if (!ALLOWED[from].includes(part)) {
            context.report({ node, message: MESSAGES[from] });
          }
        }
        return { ImportDeclaration: check, ExportNamedDeclaration: check, ExportAllDeclaration: check, ImportExpression: check };
      },
    },
  },
};

export default tseslint.config(
  { ignores: ['dist', 'node_modules', 'src/lib/api-types'] },
  {
    files: ['**/*.{ts,tsx}'],
    extends: [js.configs.recommended, ...tseslint.configs.recommended],
    languageOptions: { ecmaVersion: 2022, globals: globals.browser },
    plugins: { boundaries, 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'boundaries/imports': 'error',
    },
  },
  {
    files: ['e2e/**/*.mjs', 'scripts/**/*.mjs', '*.js'],
    extends: [js.configs.recommended],
    languageOptions: { ecmaVersion: 2022, sourceType: 'module', globals: { ...globals.node, ...globals.browser } },
  },
);
