import { Type, type Static } from '@sinclair/typebox';
import type { ApplicationSettings } from '../../../services/settings/settings';
import { ApplicationSettingCommon, presentSettingsCommon } from '../../shared/entities/settings';
import { PRIVATE, INTERNAL, PUBLIC } from '../../../services/policy';

export const VISIBILITIES = ['private', 'internal', 'public'] as const;
export type Visibility = (typeof VISIBILITIES)[number];

const LEVEL_OF: Record<Visibility, number> = { private: PRIVATE, internal: INTERNAL, public: PUBLIC };

/** v4 names a visibility level (`private`, `internal`, `public`). */
export const visibilityOf = (level: number): Visibility => (level >= PUBLIC ? 'public' : level >= INTERNAL ? 'internal' : 'private');
export const levelOf = (visibility: Visibility): number => LEVEL_OF[visibility];

const VisibilitySchema = Type.Unsafe<Visibility>(Type.String({ enum: [...VISIBILITIES] }));

/** GitLab 11's ApplicationSetting entity: the visibility settings by name. */
export const ApplicationSetting = Type.Object({
  ...ApplicationSettingCommon.properties,
  restricted_visibility_levels: Type.Array(VisibilitySchema),
  default_project_visibility: VisibilitySchema,
  default_snippet_visibility: VisibilitySchema,
  default_group_visibility: VisibilitySchema,
});

export function presentSettings(settings: ApplicationSettings): Static<typeof ApplicationSetting> {
  return Object.assign(presentSettingsCommon(settings), {
    restricted_visibility_levels: settings.restricted_visibility_levels.map(visibilityOf),
    default_project_visibility: visibilityOf(settings.default_project_visibility),
    default_snippet_visibility: visibilityOf(settings.default_snippet_visibility),
    default_group_visibility: visibilityOf(settings.default_group_visibility),
  });
}
