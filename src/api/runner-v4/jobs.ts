import { Type } from '@sinclair/typebox';
import type { Api } from '../../http/api';
import type { RunnerV4Deps } from './deps';
import { JobPayload, presentJob } from './entities/job';
import { idOf, infoOf, sendRunnerJson } from '../shared/runner-requests';
import { jobToken, requireRunner, runnerToken } from './tokens';

const Info = Type.Optional(Type.Object({}, { additionalProperties: true }));

const JobRequest = Type.Object({
  token: Type.String(),
  info: Info,
  last_update: Type.Optional(Type.String()),
  system_id: Type.Optional(Type.String()),
  session: Type.Optional(Type.Object({}, { additionalProperties: true })),
});

const JobUpdate = Type.Object({
  token: Type.String(),
  state: Type.Optional(Type.String()),
  trace: Type.Optional(Type.String()),
  failure_reason: Type.Optional(Type.String()),
  exit_code: Type.Optional(Type.Integer()),
  checksum: Type.Optional(Type.String()),
  output: Type.Optional(Type.Object({}, { additionalProperties: true })),
  info: Info,
});

const JobPath = Type.Object({ id: Type.String() });

/** Runners asking for jobs and reporting on them (GitLab's `POST /jobs/request`, `PUT /jobs/:id`). */
export function jobsRoutes(api: Api, { services, pollTimeoutMs }: RunnerV4Deps): void {
  const runners = runnerToken(services.runnerRegistration);
  const jobs = services.buildRequests;

  api.post('/jobs/request', { schema: { body: JobRequest, response: { 201: JobPayload, 204: Type.Null() } } }, async (request, reply) => {
    const body = request.body;
    let runner = await requireRunner(runners, request, body);
    runner = await services.runnerRegistration.contacted(runner, infoOf(body));
    // A runner that hangs up while held gets no job: none is claimed for it.
    const gone = new AbortController();
    const hungUp = () => gone.abort();
    reply.raw.once('close', hungUp);
    try {
      const job = runner.active
        ? await jobs.nextWithin(runner, pollTimeoutMs, gone.signal, { jobNames: true }, body.last_update)
        : undefined;
      if (job) return sendRunnerJson(reply, 201, presentJob(job));
    } finally {
      reply.raw.off('close', hungUp);
    }
    // The runner sends this back as `last_update`: while it holds, the next request skips its first look at the queue.
    return reply.code(204).header('X-GitLab-Last-Update', jobs.lastUpdate(runner)).send(null);
  });

  api.put('/jobs/:id', { schema: { params: JobPath, body: JobUpdate } }, async (request, reply) => {
    const body = request.body;
    const job = await jobs.authorizeJob(idOf(request.params.id), jobToken(request, body), { running: true });
    const updated = await jobs.updateJob(job, { state: body.state, trace: body.trace, failureReason: body.failure_reason });
    return reply.code(200).header('Job-Status', updated.status).send();
  });
}
