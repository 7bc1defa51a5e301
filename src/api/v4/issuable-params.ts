import { Type } from '@sinclair/typebox';
import { invalidParam, validationFailed } from '../../errors';
import { filterId, idParam } from '../shared/params';
import { labelTitles } from '../../services/issues/label-names';

/*
 * Parameters the issue and merge request routes of v4 share: how clients send them (python-gitlab
 * sends lists as JSON arrays or `key[]`, labels as one comma-separated string), read as GitLab reads them.
 */

/** A scalar parameter a client may send as a number, a string or a boolean. */
export const Loose = Type.Optional(Type.Union([Type.Integer(), Type.String(), Type.Boolean(), Type.Null()]));
export const Text = Type.Optional(Type.String());
/** One value or a list (`iids[]=1&iids[]=2`, or a JSON array). */
export const OneOrMany = Type.Optional(Type.Any());
/** Labels: one comma-separated string, or a list of titles. */
export const Labels = Type.Optional(Type.Union([Type.String({ maxLength: 65_535 }), Type.Array(Type.String({ maxLength: 255 }))]));
export const PageParams = { page: Type.Optional(Type.Any()), per_page: Type.Optional(Type.Any()) };

const listOf = (value: unknown): unknown[] => ([] as unknown[]).concat(value);

/**
 * How many iids or labels a filter may name: each label is a condition of its own and each iid a
 * bound value, and the databases bound both (SQLite's expression depth, PostgreSQL's parameters).
 */
const MAX_FILTER_VALUES = 100;

/** `iids[]`: each one an iid, anything else matching nothing. Undefined when not given. */
export function iidsFilter(value: unknown): number[] | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  const iids = listOf(value);
  if (iids.length > MAX_FILTER_VALUES) throw invalidParam('iids');
  return iids.map((iid) => filterId(iid) ?? -1);
}

/** Label titles of a filter (AND in v4): undefined when not given or blank. */
export function labelFilter(value: string | string[] | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  const titles = listOf(value)
    .flatMap((part) => String(part).split(','))
    .map((title) => title.trim())
    .filter((title) => title !== '');
  if (titles.length > MAX_FILTER_VALUES) throw invalidParam('labels');
  return titles.length ? titles : undefined;
}

/** Labels to set: validated titles; an empty string or list removes them all. */
export function labelsParam(value: string | string[] | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  return labelTitles(listOf(value).map(String).join(','));
}

/** `milestone` filter: a title; `None` (v4's word) or `No Milestone` for none. `Any` filters nothing. */
export function milestoneFilter(value: string | undefined): string | undefined {
  if (value === undefined || value === '' || value === 'Any') return undefined;
  return value === 'None' ? 'No Milestone' : value;
}

/** v4's `scope` (`created_by_me`, `assigned_to_me`, `all`; GitLab 9 spelled them with dashes): who the caller must be. */
export function scopeFilter(
  scope: string | undefined,
  callerId: number | undefined,
  byDefault: 'created_by_me' | 'all',
): { authorId?: number; assigneeId?: number } {
  const given = (scope ?? byDefault).replaceAll('-', '_');
  if (callerId === undefined) return {};
  if (given === 'created_by_me') return { authorId: callerId };
  if (given === 'assigned_to_me') return { assigneeId: callerId };
  return {};
}

/** `assignee_ids` (v4, a list; Forge keeps one assignee: the first) or `assignee_id`; 0 or an empty list unassigns. */
export function assigneeParam(ids: unknown, id: unknown): number | null | undefined {
  if (ids !== undefined && ids !== null && ids !== '') {
    const list = listOf(ids).filter((value) => value !== '');
    if (list.length === 0) return null;
    const first = idParam('assignee_ids', list[0]);
    return first === 0 || first === undefined ? null : first;
  }
  const single = idParam('assignee_id', id);
  return single === 0 ? null : single;
}

/** `YYYY-MM-DD` naming a real day. */
export function dateParam(value: string | undefined): string | undefined {
  if (value === undefined || value === '') return undefined;
  const date = new Date(`${value}T00:00:00Z`);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value) || Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== value) {
    throw validationFailed({ due_date: ['is not a valid date'] });
  }
  return value;
}

/** An ISO 8601 time, stored as Forge stores every time. */
export function timeParam(name: string, value: string | undefined): string | undefined {
  if (value === undefined || value === '') return undefined;
  const time = new Date(value);
  if (!/^\d{4}-\d{2}-\d{2}/.test(value) || Number.isNaN(time.getTime())) throw invalidParam(name);
  return time.toISOString();
}

/** `order_by` and `sort`: anything unknown is the default, newest created first. */
export function listOrder(orderBy: string | undefined, sort: string | undefined) {
  return { orderBy: orderBy === 'updated_at' ? 'updated_at' : 'created_at', sort: sort === 'asc' ? 'asc' : 'desc' } as const;
}

/** A `state_event` of the update routes: `close` or `reopen`, anything else none. */
export function stateEvent(value: string | undefined): 'close' | 'reopen' | undefined {
  return value === 'close' || value === 'reopen' ? value : undefined;
}
