import { Type, type Static } from '@sinclair/typebox';
import { INTERNAL, PRIVATE, PUBLIC } from '../../../services/policy';

/** v4's name for a visibility level, in answers, bodies and filters (v3 spoke `visibility_level` and `public`). */
export const Visibility = Type.Union([Type.Literal('private'), Type.Literal('internal'), Type.Literal('public')]);
export type VisibilityName = Static<typeof Visibility>;

const LEVELS: Record<VisibilityName, number> = { private: PRIVATE, internal: INTERNAL, public: PUBLIC };

/** The level the services store for a visibility name given in a body; undefined when none was given. */
export const visibilityLevelOf = (name: VisibilityName | undefined): number | undefined => (name === undefined ? undefined : LEVELS[name]);
