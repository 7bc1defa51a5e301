import type { Kysely, Migration } from 'kysely';

/**
 * A job's JUnit report (`artifacts: reports: junit`), kept beside its artifacts in the file store:
 * its size (null: none), when it expires (its upload's `expire_in`), and its counts and failed
 * cases' names as read at upload (JSON), so that summaries never read the file again.
 */
export function migration(): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema.alterTable('ci_builds').addColumn('junit_report_size', 'integer').execute();
      await db.schema.alterTable('ci_builds').addColumn('junit_report_expire_at', 'text').execute();
      await db.schema.alterTable('ci_builds').addColumn('junit_report_summary', 'text').execute();
      await db.schema.createIndex('ci_builds_junit_expiry').on('ci_builds').column('junit_report_expire_at').execute();
    },
  };
}
