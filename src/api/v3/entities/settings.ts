import { Type, type Static, type TSchema } from '@sinclair/typebox';
import type { ApplicationSettings } from '../../../services/settings/settings';
import { ApplicationSettingCommon, presentSettingsCommon } from '../../shared/entities/settings';

const Level = Type.Integer();

/** The visibility settings as levels (0, 10, 20), each after the field it follows in GitLab 8.12's entity. */
const LEVEL_FIELDS: [after: string, name: string, schema: TSchema][] = [
  ['default_branch_protection', 'restricted_visibility_levels', Type.Array(Level)],
  ['session_expire_delay', 'default_project_visibility', Level],
  ['default_project_visibility', 'default_snippet_visibility', Level],
  ['default_snippet_visibility', 'default_group_visibility', Level],
];

/** The common fields with the levels in 8.12's order: the schema's order is the answer's. */
function withLevels(): Record<string, TSchema> {
  const fields: Record<string, TSchema> = {};
  for (const [name, schema] of Object.entries(ApplicationSettingCommon.properties)) {
    fields[name] = schema;
    // A level may follow another level (project, then snippet, then group).
    for (let next = LEVEL_FIELDS.find(([after]) => after === name); next; next = LEVEL_FIELDS.find(([after]) => after === next![1])) {
      fields[next[1]] = next[2];
    }
  }
  return fields;
}

/** GitLab 8.12's ApplicationSetting entity, plus the shared runners' registration token (a column of GitLab's table). */
export const ApplicationSetting = Type.Unsafe<
  Static<typeof ApplicationSettingCommon> & {
    restricted_visibility_levels: number[];
    default_project_visibility: number;
    default_snippet_visibility: number;
    default_group_visibility: number;
  }
>(Type.Object(withLevels()));

export function presentSettings(settings: ApplicationSettings): Static<typeof ApplicationSetting> {
  return Object.assign(presentSettingsCommon(settings), {
    restricted_visibility_levels: settings.restricted_visibility_levels,
    default_project_visibility: settings.default_project_visibility,
    default_snippet_visibility: settings.default_snippet_visibility,
    default_group_visibility: settings.default_group_visibility,
  });
}
