import { Type } from '@sinclair/typebox';
import type { Api, RouteDeps } from '../shared/types';

/**
 * The GitLab release whose v4 Forge answers as: the last of the 11 series, whose `doc/api/*.md`
 * describe the resources served here. Clients read it from `GET /version` to pick features.
 */
export const API_V4_VERSION = '11.11.0';

const Version = Type.Object({ version: Type.String(), revision: Type.String() });

/** `GET /version`: which GitLab this answers as; clients read it to pick features. Any signed-in caller. */
export function versionRoutes(api: Api, _deps: RouteDeps): void {
  api.get('/version', { schema: { response: { 200: Version } } }, async () => ({ version: API_V4_VERSION, revision: 'forge' }));
}
