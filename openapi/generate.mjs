// Generates TypeScript types from the OpenAPI documents in this folder with openapi-typescript,
// or with --check fails when a generated file is stale. Run from a package that has
// openapi-typescript installed (dashboard/, sdk/): its npm scripts `gen:api` and `check:api`
// call this with `document.json=output.d.ts` pairs relative to this folder and to the package.
//   node ../openapi/generate.mjs [--check] dashboard.json=src/lib/openapi/dashboard.d.ts ...
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const check = args.includes('--check');
const pairs = args.filter((arg) => arg !== '--check').map((arg) => arg.split('='));
if (!pairs.length || pairs.some((pair) => pair.length !== 2)) {
  console.error('usage: node generate.mjs [--check] document.json=output.d.ts ...');
  process.exit(2);
}

const require = createRequire(resolve(process.cwd(), 'package.json'));
const generator = await import(pathToFileURL(require.resolve('openapi-typescript')).href);
const { astToString, COMMENT_HEADER } = generator;
const openapiTS = generator.default.default ?? generator.default; // the CommonJS build's default export

let stale = 0;
for (const [document, output] of pairs) {
  const source = resolve(here, document);
  const target = resolve(process.cwd(), output);
  // defaultNonNullable off: a request field the server has a default for may be left out (only
  // the input schemas have fields with defaults that are not required).
  const ast = await openapiTS(JSON.parse(readFileSync(source, 'utf8')), { defaultNonNullable: false });
  const contents = `${COMMENT_HEADER}// Generated from openapi/${document} by \`npm run gen:api\`: do not edit.\n\n${astToString(ast)}`;
  if (check) {
    let current = '';
    try {
      current = readFileSync(target, 'utf8');
    } catch {
      // missing: stale
    }
    if (current !== contents) {
      stale += 1;
      console.error(`${output} is out of date with openapi/${document}: run \`npm run gen:api\` and commit it.`);
    }
  } else {
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, contents);
    console.log(`wrote ${output} from openapi/${document}`);
  }
}
if (check && stale) process.exit(1);
if (check) console.log(`generated API types up to date (${pairs.map(([, output]) => output).join(', ')})`);
