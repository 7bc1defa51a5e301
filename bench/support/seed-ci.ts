import { sql, type Insertable } from 'kysely';
import type { DbHandle } from '../../src/db/index';
import type { CiBuildsTable, CiPipelinesTable } from '../../src/db/schema';
import { chunksOf } from '../../src/db/chunks';
import type { SecretBox } from '../../src/lib/secrets';
import { digestToken, randomToken } from '../../src/lib/secrets';

export interface CiProject {
  id: number;
  /** The commit the project's pipelines build. */
  sha: string;
}

export interface PipelineShape {
  pipelines: number;
  buildsPerPipeline: number;
  /** `pending` builds wait for a runner; `running` ones are being run by `runnerId`. */
  status: 'pending' | 'running';
  runnerId?: number | null;
  /** Names the builds apart from those of another call. */
  label: string;
}

export interface SeededBuild {
  id: number;
  token: string;
}

const BASE_TIME = Date.UTC(2016, 8, 22, 12, 0, 0);
const at = (n: number) => new Date(BASE_TIME + n * 1000).toISOString();

/**
 * Writes pipelines on master and their builds in bulk, in one transaction, as pipeline creation and
 * stage processing would have left them: one stage, every build already `pending` (or `running`),
 * pipelines spread over the projects in turn. Each build gets a token of its own (20 random
 * characters) stored as the runner API expects it: a digest to find the build, sealed to hand it
 * out again. Deterministic but for the tokens. PostgreSQL is analyzed afterwards, as autovacuum
 * would soon do.
 */
export async function seedPipelines(
  { db, dialect }: DbHandle,
  secrets: SecretBox,
  projects: CiProject[],
  shape: PipelineShape,
): Promise<SeededBuild[]> {
  const seeded = await db.transaction().execute(async (trx) => {
    const pipelineRows: Insertable<CiPipelinesTable>[] = Array.from({ length: shape.pipelines }, (_, p) => {
      const project = projects[p % projects.length];
      return {
        project_id: project.id,
        ref: 'master',
        sha: project.sha,
        before_sha: project.sha,
        tag: 0,
        status: shape.status,
        started_at: shape.status === 'running' ? at(p) : null,
        created_at: at(p),
        updated_at: at(p),
      };
    });
    // RETURNING promises no order: rows are matched by what tells them apart (a pipeline's creation time here).
    const pipelineIdAt = new Map<string, number>();
    for (const chunk of chunksOf(pipelineRows)) {
      const rows = await trx.insertInto('ci_pipelines').values(chunk).returning(['id', 'created_at']).execute();
      for (const row of rows) pipelineIdAt.set(row.created_at, row.id);
    }
    const pipelineIds = pipelineRows.map((row) => pipelineIdAt.get(row.created_at as string)!);

    const tokens = new Map<string, string>();
    const buildRows: Insertable<CiBuildsTable>[] = [];
    pipelineRows.forEach((pipeline, p) => {
      for (let b = 0; b < shape.buildsPerPipeline; b++) {
        const token = randomToken(20);
        const name = `${shape.label} ${b + 1}/${shape.buildsPerPipeline}`;
        tokens.set(`${pipelineIds[p]} ${name}`, token);
        const time = at(p);
        buildRows.push({
          project_id: pipeline.project_id,
          pipeline_id: pipelineIds[p],
          type: 'Build',
          name,
          stage: 'test',
          stage_idx: 0,
          ref: 'master',
          tag: 0,
          status: shape.status,
          allow_failure: 0,
          when: 'on_success',
          runner_id: shape.status === 'running' ? (shape.runnerId ?? null) : null,
          token_digest: digestToken(token),
          token_sealed: secrets.seal(token),
          commands: 'bundle install\nbundle exec rake spec',
          tag_list: '[]',
          options: '{}',
          yaml_variables: '[]',
          queued_at: time,
          started_at: shape.status === 'running' ? time : null,
          created_at: time,
          updated_at: time,
        });
      }
    });
    const builds: SeededBuild[] = [];
    for (const chunk of chunksOf(buildRows)) {
      const rows = await trx.insertInto('ci_builds').values(chunk).returning(['id', 'pipeline_id', 'name']).execute();
      for (const row of rows) builds.push({ id: row.id, token: tokens.get(`${row.pipeline_id} ${row.name}`)! });
    }
    return builds.sort((a, b) => a.id - b.id);
  });
  if (dialect === 'postgres') await sql`ANALYZE`.execute(db);
  return seeded;
}
