import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { cloneUrl, commit, git, workTree } from './git';
import { eventually } from './eventually';
import { forgeArgs, ROOT } from './node-entry';

/**
 * The real `forge runner` in a process of its own (`forge runner …`, src/main as node-entry.ts runs it), its
 * registration and working copies in a temp dir of its own. `GATE_DIR` in its environment (and so
 * in its builds') names a folder tests create files in to let a waiting build go on.
 */
export class RunnerProcess {
  output = '';
  readonly exited: Promise<number | null>;
  private exitCode: number | null | undefined;

  private constructor(
    readonly child: ChildProcess,
    readonly dir: string,
    readonly gateDir: string,
  ) {
    const collect = (chunk: Buffer) => (this.output += chunk.toString('utf8'));
    child.stdout!.on('data', collect);
    child.stderr!.on('data', collect);
    this.exited = new Promise((resolve) => child.on('exit', (code) => resolve((this.exitCode = code))));
  }

  static start(
    app: { url: string },
    opts: { registrationToken?: string; token?: string; concurrency?: number; tags?: string; dir?: string; gateDir?: string } = {},
  ): RunnerProcess {
    const dir = opts.dir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'forge-runner-'));
    const gateDir = opts.gateDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'forge-gate-'));
    const args = [
      ...forgeArgs(),
      'runner',
      '--url',
      app.url,
      '--config',
      path.join(dir, 'forge-runner.json'),
      '--builds-dir',
      path.join(dir, 'builds'),
    ];
    if (opts.registrationToken) args.push(`--registration-token=${opts.registrationToken}`);
    if (opts.token) args.push('--token', opts.token);
    if (opts.concurrency) args.push('--concurrency', String(opts.concurrency));
    if (opts.tags) args.push('--tags', opts.tags);
    const child = spawn(process.execPath, args, {
      cwd: ROOT,
      env: { ...process.env, GATE_DIR: gateDir, HOME: os.tmpdir(), GIT_CONFIG_NOSYSTEM: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    return new RunnerProcess(child, dir, gateDir);
  }

  get configFile(): string {
    return path.join(this.dir, 'forge-runner.json');
  }

  get running(): boolean {
    return this.exitCode === undefined;
  }

  /** Lets builds waiting on `name` go on. */
  open(name: string): void {
    fs.writeFileSync(path.join(this.gateDir, name), '');
  }

  async waitForOutput(pattern: RegExp): Promise<RegExpMatchArray> {
    return eventually(() => this.output.match(pattern), { message: `runner output matching ${pattern} (got:\n${this.output})` });
  }

  signal(name: NodeJS.Signals): void {
    if (this.running) this.child.kill(name);
  }

  /** Stops the runner and its builds at once (two signals: builds are killed and reported failed); then removes its folders. */
  async close(opts: { keepDir?: boolean } = {}): Promise<void> {
    if (this.running) {
      this.signal('SIGTERM');
      await new Promise((resolve) => setTimeout(resolve, 50));
      this.signal('SIGTERM');
      const timer = setTimeout(() => this.signal('SIGKILL'), 20_000);
      await this.exited;
      clearTimeout(timer);
    }
    if (!opts.keepDir) fs.rmSync(this.dir, { recursive: true, force: true });
    fs.rmSync(this.gateDir, { recursive: true, force: true });
  }
}

/** Pushes a commit holding `.gitlab-ci.yml` (and `files`) to `branch` of the project as root; the commit's sha. */
export async function pushCi(
  app: { url: string },
  project: { path_with_namespace: string },
  branch: string,
  yaml: string,
  files: Record<string, string> = {},
): Promise<string> {
  const dir = await workTree(branch, { 'README.md': `# ${branch}\n` });
  try {
    await commit(dir, { '.gitlab-ci.yml': yaml, ...files }, 'Add CI');
    const pushed = await git(['push', '-q', cloneUrl(app.url, project.path_with_namespace, 'root', 'rootpassword'), branch], dir);
    if (pushed.code !== 0) throw new Error(`push failed: ${pushed.stderr}`);
    return (await git(['rev-parse', 'HEAD'], dir)).stdout.trim();
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
