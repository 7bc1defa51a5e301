import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { notFound } from '../errors';
import type { Services } from '../services/index';
import { PAGE, pageContext, sendPage } from './request';
import { recordId } from './pipeline-routes';
import { administrator, TokenBody } from './admin-guard';
import { backgroundJobsPage } from './pages/admin/background-jobs';
import { redirectWithNotice } from './flash';

/** Background jobs (GitLab 8.12's `/admin/background_jobs`, Sidekiq's page there): the queue, the failed jobs and their errors, a retry. */
export function adminJobRoutes(pages: FastifyInstance, { services }: { services: Services }): void {
  const jobs = services.backgroundJobs;
  const show = async (request: FastifyRequest, reply: FastifyReply, notice?: string) => {
    const [counts, pending, failed] = await Promise.all([jobs.counts(), jobs.pending(), jobs.failed()]);
    const body = backgroundJobsPage({ counts, pending, failed, csrfToken: pageContext(request).csrfToken, notice });
    return sendPage(request, reply, 'Background jobs · Admin area', body);
  };

  pages.get('/admin/background_jobs', { config: PAGE }, async (request, reply) => {
    administrator(request);
    return show(request, reply);
  });

  pages.post<{ Params: { id: string } }>(
    '/admin/background_jobs/:id/retry',
    { config: PAGE, schema: { body: TokenBody } },
    async (request, reply) => {
      administrator(request);
      if (!(await jobs.retry(recordId(request.params.id)))) throw notFound();
      return redirectWithNotice(request, reply, '/admin/background_jobs', 'The job was queued again.');
    },
  );
}
