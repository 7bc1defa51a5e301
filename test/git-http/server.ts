import { execFile } from 'node:child_process';
import Fastify, { type FastifyInstance } from 'fastify';
import { registerGitHttp } from '../../src/git-http/plugin';
import type { GitAccess, GitHttpBackend, GitHttpProject, PushCheck, PushRejection, RefUpdate } from '../../src/git-http/types';
import { clientEnv } from '../git/fixture';

export interface TestUser {
  username: string;
  password: string;
  token: string;
}

export interface TestProject extends GitHttpProject {
  public: boolean;
  /** Role per username: reporters read, developers push. */
  members: Record<string, 'reporter' | 'developer'>;
}

export const PROTECTED_MESSAGE = 'You are not allowed to push code to protected branches on this project.';
export const FORCE_PUSH_MESSAGE = 'You are not allowed to force push code to a protected branch on this project.';

/** In-memory users and projects over real repositories: what the database would answer. */
export class MemoryBackend implements GitHttpBackend<TestUser, TestProject> {
  readonly pushes: Array<{ user: string; project: number; updates: RefUpdate[] }> = [];
  readonly checked: RefUpdate[][] = [];

  constructor(
    readonly users: TestUser[],
    readonly projects: Map<string, TestProject>,
  ) {}

  async resolveProject(namespace: string, project: string) {
    return this.projects.get(`${namespace}/${project}`);
  }

  async authenticate(username: string, password: string) {
    return this.users.find((user) => user.username === username && (password === user.password || password === user.token));
  }

  async access(user: TestUser | null, project: TestProject, action: 'read' | 'write'): Promise<GitAccess> {
    const role = user ? project.members[user.username] : undefined;
    if (action === 'read' && (project.public || role)) return 'ok';
    if (!user) return 'unauthorized';
    if (!role) return project.public ? 'forbidden' : 'not_found';
    return action === 'write' && role !== 'developer' ? 'forbidden' : 'ok';
  }

  /** `protected` takes no pushes at all; `stable` only moves forward. */
  async checkPush(_user: TestUser, _project: TestProject, updates: RefUpdate[]): Promise<PushCheck> {
    this.checked.push(updates);
    const rejections: PushRejection[] = updates
      .filter((update) => update.ref === 'refs/heads/protected')
      .map((update) => ({ ref: update.ref, message: PROTECTED_MESSAGE }));
    return { rejections, fastForwardOnly: { refs: ['refs/heads/stable'], message: FORCE_PUSH_MESSAGE } };
  }

  async afterPush(user: TestUser, project: TestProject, updates: RefUpdate[]) {
    this.pushes.push({ user: user.username, project: project.id, updates });
  }
}

export async function startGitServer(backend: MemoryBackend): Promise<{ app: FastifyInstance; url: string }> {
  const app = Fastify({ logger: false });
  await registerGitHttp(app, { backend });
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  return { app, url: address };
}

export interface GitRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the real git client without blocking the server that shares this process. */
export function gitClient(cwd: string, args: string[], env: Record<string, string> = {}): Promise<GitRun> {
  return new Promise((resolve) => {
    execFile('git', args, { cwd, env: clientEnv(env), maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout: String(stdout), stderr: String(stderr) });
    });
  });
}

export const withCredentials = (url: string, user: TestUser, secret = user.password): string => {
  const parsed = new URL(url);
  parsed.username = user.username;
  parsed.password = secret;
  return parsed.toString().replace(/\/$/, '');
};
