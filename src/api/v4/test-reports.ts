import { Type } from '@sinclair/typebox';
import type { Api, RouteDeps } from '../shared/types';
import { RecordId } from '../shared/params';
import { TestReportEntity, TestReportSummaryEntity, presentTestReport, presentTestReportSummary } from './entities/test-report';

// A path that is not an id names no pipeline (404).
const PipelinePath = Type.Object({ id: Type.String(), pipeline_id: RecordId });
const NoParams = Type.Object({});
// Read as the pipeline is (`read_pipeline`): a private project's is 404 to those who may not see it.
const readPipeline = { access: 'optional', project: 'read_pipeline' } as const;

/** A pipeline's JUnit test reports (GitLab 12.5+ `test_report`, 14+ `test_report_summary`). */
export function testReportsRoutes(api: Api, { services }: RouteDeps): void {
  const { testReports } = services;

  api.get(
    '/projects/:id/pipelines/:pipeline_id/test_report',
    { config: readPipeline, schema: { params: PipelinePath, querystring: NoParams, response: { 200: TestReportEntity } } },
    async (request) => presentTestReport(await testReports.pipelineReport(request.project, request.params.pipeline_id)),
  );

  api.get(
    '/projects/:id/pipelines/:pipeline_id/test_report_summary',
    { config: readPipeline, schema: { params: PipelinePath, querystring: NoParams, response: { 200: TestReportSummaryEntity } } },
    async (request) => presentTestReportSummary(await testReports.pipelineSummary(request.project, request.params.pipeline_id)),
  );
}
