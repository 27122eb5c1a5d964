// Prints the gzip size of the JavaScript the first page load needs (entry + preloaded chunks)
// and of the lazily loaded CKEditor chunk. Run after `npm run build`.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const dist = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'dist');
const html = readFileSync(path.join(dist, 'index.html'), 'utf8');
const initial = [...html.matchAll(/(?:src|href)="\/(assets\/[^"]+\.js)"/g)].map((m) => m[1]);
const gz = (file) => gzipSync(readFileSync(path.join(dist, file))).length;
const kb = (n) => `${(n / 1024).toFixed(1)} kB`;

const initialTotal = initial.reduce((sum, f) => sum + gz(f), 0);
console.log(`Initial JS (${initial.length} files): ${kb(initialTotal)} gzip`);
for (const f of initial) console.log(`  ${f}: ${kb(gz(f))}`);
const assets = readdirSync(path.join(dist, 'assets'));
for (const f of assets.filter((a) => a.startsWith('CkEditorField'))) {
  console.log(`CKEditor chunk ${f}: ${kb(gz(`assets/${f}`))} gzip`);
}
const editorInInitial = initial.some((f) => f.includes('CkEditorField'));
console.log(editorInInitial ? 'CKEditor IS part of the initial load' : 'CKEditor is not part of the initial load');
process.exitCode = editorInInitial ? 1 : 0;
