import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { RunnerApi } from './api';
import { Runner, RunnerStartError, ensureRegistered, type RunnerOptions } from './runner';

/*
 * `forge runner …`: the command line of Forge's own CI runner. The first SIGINT or SIGTERM stops
 * asking for builds and lets those in hand finish; a second one fails them at once. Either way the
 * process then exits 0.
 */

const USAGE = `usage: forge runner --url URL [--registration-token TOKEN | --token glrt-…] [options]

Runs CI jobs for a Forge server on this machine, in bash (a shell executor), over the runner API v4.

  --url URL                   the server, e.g. http://localhost:8080
  --registration-token TOKEN  registers the runner on first start (npx forge admin runners-token)
  --token glrt-…              uses a runner made with POST /api/v4/user/runners (its authentication token)
  --description TEXT          the runner's description (default: forge runner on <host>)
  --tags a,b                  the runner's tags
  --concurrency N             builds run at once (default 1)
  --builds-dir DIR            where working copies are made (default ./forge-builds)
  --config FILE               where the registration is kept (default ./forge-runner.json)
`;

const log = (line: string) => console.log(`${new Date().toISOString()} ${line}`);

export async function runnerCommand(argv: string[]): Promise<number> {
  let options: RunnerOptions | undefined;
  try {
    options = parseOptions(argv);
  } catch (error) {
    console.error(`${(error as Error).message}\n\n${USAGE}`);
    return 2;
  }
  if (!options) {
    console.log(USAGE);
    return 0;
  }
  try {
    const api = new RunnerApi(options.url);
    const registration = await ensureRegistered(api, options, log);
    const runner = new Runner(api, registration, options, log);
    let signals = 0;
    const onSignal = (signal: string) => {
      signals += 1;
      log(`${signal} received`);
      if (signals === 1) runner.stop();
      else runner.stopNow();
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
    const code = await runner.run();
    log('runner stopped');
    return code;
  } catch (error) {
    if (error instanceof RunnerStartError || error instanceof SyntaxError) {
      console.error(`forge runner: ${error.message}`);
      return 1;
    }
    throw error;
  }
}

/** The options, or undefined for --help. */
function parseOptions(argv: string[]): RunnerOptions | undefined {
  const { values } = parseArgs({
    args: argv,
    options: {
      url: { type: 'string' },
      'registration-token': { type: 'string' },
      token: { type: 'string' },
      description: { type: 'string' },
      tags: { type: 'string' },
      concurrency: { type: 'string' },
      'builds-dir': { type: 'string' },
      config: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
    allowPositionals: false,
  });
  if (values.help) return undefined;
  if (!values.url) throw new Error('forge runner: --url is required');
  const url = values.url.replace(/\/+$/, '');
  if (!/^https?:\/\/[^/]/.test(url)) throw new Error(`forge runner: --url must be an http or https URL, not ${values.url}`);
  if (values.token !== undefined && values['registration-token'] !== undefined)
    throw new Error('forge runner: give --registration-token or --token, not both');
  const concurrency = values.concurrency === undefined ? 1 : Number(values.concurrency);
  if (!Number.isInteger(concurrency) || concurrency < 1)
    throw new Error(`forge runner: --concurrency must be a whole number of at least 1, not ${values.concurrency}`);
  const tags = (values.tags ?? '')
    .split(',')
    .map((tag) => tag.trim())
    .filter((tag) => tag !== '');
  return {
    url,
    registrationToken: values['registration-token'],
    token: values.token,
    description: values.description ?? `forge runner on ${os.hostname()}`,
    tags,
    concurrency,
    buildsDir: path.resolve(values['builds-dir'] ?? 'forge-builds'),
    configFile: path.resolve(values.config ?? 'forge-runner.json'),
  };
}
