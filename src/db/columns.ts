import { sql, type ColumnDefinitionBuilder, type CreateTableBuilder } from 'kysely';
import type { DialectName } from './index';

/** An auto-incrementing integer primary key, spelled as each database wants it. */
export function withId<T extends string>(table: CreateTableBuilder<T, never>, dialect: DialectName) {
  return dialect === 'postgres'
    ? table.addColumn('id', 'serial', (col) => col.primaryKey())
    : table.addColumn('id', 'integer', (col) => col.primaryKey().autoIncrement());
}

export const flag = (defaultValue: 0 | 1) => (col: ColumnDefinitionBuilder) => col.notNull().defaultTo(defaultValue);
export const timestamp = (col: ColumnDefinitionBuilder) => col.notNull();
export const emptyText = (col: ColumnDefinitionBuilder) => col.notNull().defaultTo(sql`''`);
