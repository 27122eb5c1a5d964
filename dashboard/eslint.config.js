// Lint of the dashboard, run by `npm test` (README: dashboard, code boundaries).
// The import boundaries (rule `boundaries/imports`, below): a feature imports nothing of another
// feature except that feature's `api.ts` (its endpoints and entity types, one file per entity);
// components/ and lib/ import no feature; app/ wires everything together.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const SRC = fileURLToPath(new URL('./src', import.meta.url));
const FEATURES = path.join(SRC, 'features');
/** The feature a file of src/ belongs to (null outside features/). */
function featureOf(file) {
  const relative = path.relative(FEATURES, file);
  return relative.startsWith('..') ? null : relative.split(path.sep)[0];
}

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
        const importer = context.filename;
        const from = featureOf(importer);
        const inSrc = path.relative(SRC, importer);
        // app/ and the entry point wire the features together; components/ and lib/ stay below them.
        const outsideFeatures = !from && !inSrc.startsWith(`app${path.sep}`) && inSrc !== 'main.tsx' && !inSrc.startsWith('..');
        function check(node) {
          const to = node.source && target(String(node.source.value), importer);
          const feature = to && featureOf(to);
          if (!feature || feature === from) return;
          if (outsideFeatures) {
            context.report({ node, message: 'components/ and lib/ must not import features/ (move the shared code there instead).' });
          } else if (from && path.relative(path.join(FEATURES, feature), to).replace(/\.tsx?$/, '') !== 'api') {
            context.report({ node, message: "Features do not import each other (only another feature's api.ts); move shared code to components/ or lib/." });
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
