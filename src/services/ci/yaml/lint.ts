import { LIMITS } from '../../../lib/limits';
import type { ServiceContext } from '../../context';
import { includeReader } from '../pipelines/include-reader';
import { CI_CONFIG_TOO_LARGE, composeCiConfig, EMPTY_CONTENT_MESSAGE, parseCiConfig } from './index';

/**
 * `POST /ci/lint`: 8.12's `GitlabCiYamlProcessor.validation_message`, the first problem of a
 * `.gitlab-ci.yml` text or none, found by the same parser that builds pipelines.
 */
export class CiLintService {
  constructor(private readonly ctx: ServiceContext) {}

  /** The first problem's message, or undefined when the text is a valid configuration. */
  firstError(content: string): string | undefined {
    const early = precheck(content);
    if (early !== undefined) return early;
    const parsed = parseCiConfig(content);
    return parsed.ok ? undefined : parsed.error;
  }

  /**
   * Today's linter (`/api/v4/ci/lint`): `include:` of projects `userId` may read (anyone's public
   * ones for no user); a local include has no project to come from, as in GitLab.
   */
  async firstErrorWithIncludes(content: string, userId: number | null): Promise<string | undefined> {
    const early = precheck(content);
    if (early !== undefined) return early;
    const parsed = await composeCiConfig(content, includeReader(this.ctx, userId), null);
    return parsed.ok ? undefined : parsed.error;
  }
}

function precheck(content: string): string | undefined {
  // Ruby's `blank?`: whitespace alone is no content either.
  if (content.trim() === '') return EMPTY_CONTENT_MESSAGE;
  // The limit pipelines apply, so that the linter says what a push of this file would.
  if (Buffer.byteLength(content, 'utf8') > LIMITS.ciConfigBytes) return CI_CONFIG_TOO_LARGE;
  return undefined;
}
