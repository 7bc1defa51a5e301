import type { Kysely, Migration } from 'kysely';
import type { DbHandle } from '../index';
import { flag, timestamp, withId } from '../columns';

/**
 * GitLab's `web_hook_logs`: one row per delivery of a project or system hook, test deliveries
 * included (`test`), with what was sent (headers and body, bounded) and what came back (status,
 * body excerpt, or the error instead), and how long it took. A hook's logs go with it (the
 * foreign key), and a sweep keeps only recent ones: the index serves both the hook's page and it.
 */
export function migration({ dialect }: DbHandle): Migration {
  return {
    async up(db: Kysely<any>) {
      await withId(db.schema.createTable('web_hook_logs'), dialect)
        .addColumn('hook_id', 'integer', (c) => c.notNull().references('hooks.id').onDelete('cascade'))
        .addColumn('trigger', 'text', (c) => c.notNull())
        .addColumn('url', 'text', (c) => c.notNull())
        .addColumn('request_headers', 'text', (c) => c.notNull())
        .addColumn('request_data', 'text', (c) => c.notNull())
        .addColumn('response_status', 'integer')
        .addColumn('response_body', 'text')
        .addColumn('internal_error_message', 'text')
        .addColumn('execution_duration_ms', 'integer', (c) => c.notNull())
        .addColumn('test', 'integer', flag(0))
        .addColumn('created_at', 'text', timestamp)
        .execute();
      await db.schema.createIndex('web_hook_logs_hook_time').on('web_hook_logs').columns(['hook_id', 'created_at']).execute();
    },
  };
}
