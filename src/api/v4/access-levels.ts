import { Type } from '@sinclair/typebox';
import { GROUP_ACCESS_LEVELS, PROJECT_ACCESS_LEVELS } from '../../services/policy';
import type { SourceKind } from '../../services/members/types';

/** The access levels a member of a project (guest to master) or a group (to owner) may have, as a body's schema. */
export const accessLevelSchema = (kind: SourceKind) =>
  Type.Union((kind === 'projects' ? PROJECT_ACCESS_LEVELS : GROUP_ACCESS_LEVELS).map((level) => Type.Literal(level)));
