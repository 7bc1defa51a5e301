// Takes the README's screenshots of the web pages: starts Forge over a scratch data directory (as
// the benchmarks do), writes a small demo project through the API, signs in with chromium and
// saves three 1280×800 PNGs into docs/screenshots/.
//
//   node --import tsx scripts/screenshots.mjs      (needs /usr/bin/chromium: apt-get install chromium)
import fs from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { startBenchApp } from '../bench/support/app.ts';
import { apiCall } from '../bench/support/http.ts';

const OUT = path.join(import.meta.dirname, '..', 'docs', 'screenshots');
const ROOT_PASSWORD = 'rootpassword';

const README = `# Forge demo

A small service kept on Forge: its files, commits and merge requests are read here as on GitLab 8.12.

## Running it

\`\`\`sh
npm ci && npm start
\`\`\`

| Setting | Default | Meaning |
| ------- | ------- | ------- |
| \`PORT\` | \`8080\` | where the server listens |
| \`GREETING\` | \`Hello\` | the first word of every answer |

## To do

- [x] answer \`/hello\`
- [ ] answer \`/health\` with the uptime
`;

const SERVER = (greeting) => `import http from 'node:http';

/** Settings from the environment, with the defaults the README lists. */
const port = Number(process.env.PORT ?? 8080);
const greeting = process.env.GREETING ?? '${greeting}';

interface Answer {
  status: number;
  body: string;
}

/** What each path answers: a greeting for a name, 404 for anything else. */
export function answer(url: string): Answer {
  const match = /^\\/hello(?:\\/([a-z]+))?$/i.exec(url);
  if (!match) return { status: 404, body: 'Not found\\n' };
  const name = match[1] ?? 'world';
  return { status: 200, body: \`\${greeting}, \${name}!\\n\` };
}

const server = http.createServer((request, response) => {
  const { status, body } = answer(request.url ?? '/');
  response.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' });
  response.end(body);
});

server.listen(port, () => console.log(\`listening on \${port}\`));
`;

async function seed(app) {
  const call = (method, route, body) => apiCall(app.url, app.rootToken, method, route, body);
  const project = await call('POST', '/projects', {
    name: 'forge-demo',
    description: 'A small HTTP service, to show the pages',
    visibility_level: 20,
  });
  const files = `/projects/${project.id}/repository/files`;
  await call('POST', files, { file_path: 'README.md', branch_name: 'master', content: README, commit_message: 'Add a README' });
  await call('POST', files, {
    file_path: 'src/server.ts',
    branch_name: 'master',
    content: SERVER('Hello'),
    commit_message: 'Serve /hello',
  });
  const changed = SERVER('Hi').replace("'node:http';", "'node:http';\nimport { performance } from 'node:perf_hooks';");
  await call('PUT', files, {
    file_path: 'src/server.ts',
    branch_name: 'master',
    content: changed.replace('listening on ${port}', 'listening on ${port} after ${performance.now().toFixed(0)} ms'),
    commit_message: 'Greet with Hi, say how long the start took',
  });
  const [last] = await call('GET', `/projects/${project.id}/repository/commits`);
  return { web: `/${project.path_with_namespace}`, sha: last.id };
}

const app = await startBenchApp({ INITIAL_ROOT_PASSWORD: ROOT_PASSWORD });
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
try {
  const { web, sha } = await seed(app);
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.goto(`${app.url}/users/sign_in`);
  await page.getByLabel('Username or email').fill('root');
  await page.getByLabel('Password').fill(ROOT_PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(`${app.url}/`);
  fs.mkdirSync(OUT, { recursive: true });
  const shots = [
    ['project.png', web],
    ['blob.png', `${web}/blob/master/src/server.ts`],
    ['commit.png', `${web}/commit/${sha}`],
  ];
  for (const [file, url] of shots) {
    const response = await page.goto(`${app.url}${url}`);
    if (response?.status() !== 200) throw new Error(`${url} answered ${response?.status()}`);
    await page.screenshot({ path: path.join(OUT, file) });
    console.log(`${file}: ${url} (${(fs.statSync(path.join(OUT, file)).size / 1024).toFixed(0)} KB)`);
  }
} finally {
  await browser.close();
  await app.close();
}
