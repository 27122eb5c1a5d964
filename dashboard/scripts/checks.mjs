// npm test: the dashboard's static checks side by side (the API types against the OpenAPI
// documents, ESLint, tsc: one core each; one after another they took about 42 s, side by side
// about tsc's 24 s), then Vitest after them (its jsdom tests wait up to 10 s for the lazily loaded
// editor; checks beside them would slow its first files). Each static check's output is printed
// whole when it ends, with its time; Vitest runs when every static check passed.
import { spawn } from 'node:child_process';

const CHECKS = [
  ['API types', 'npm', ['run', '--silent', 'check:api']],
  ['ESLint', 'npm', ['run', '--silent', 'lint']],
  ['tsc', 'npm', ['run', '--silent', 'typecheck']],
];

function run([name, command, args]) {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], env: process.env });
    const output = [];
    child.stdout.on('data', (chunk) => output.push(chunk));
    child.stderr.on('data', (chunk) => output.push(chunk));
    let ended = false;
    const finish = (code) => {
      if (ended) return;
      ended = true;
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      process.stdout.write(`\n=== ${name}: ${code === 0 ? 'ok' : `FAILED (${code})`} in ${seconds} s\n`);
      process.stdout.write(Buffer.concat(output));
      resolve({ name, code, seconds });
    };
    child.on('error', (error) => {
      output.push(Buffer.from(`${error.message}\n`));
      finish(127);
    });
    child.on('close', (code, signal) => finish(code ?? (signal ? 128 : 1)));
  });
}

const results = await Promise.all(CHECKS.map(run));
console.log('\n=== static checks');
for (const { name, code, seconds } of results) console.log(`${name.padEnd(10)} ${seconds.padStart(6)} s  ${code === 0 ? 'ok' : 'FAILED'}`);
if (results.some(({ code }) => code !== 0)) process.exit(1);

console.log('\n=== Vitest');
const vitest = spawn('npx', ['vitest', 'run'], { stdio: 'inherit', env: process.env });
vitest.on('close', (code, signal) => process.exit(code ?? (signal ? 128 : 1)));
