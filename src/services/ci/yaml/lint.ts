import { LIMITS } from '../../../lib/limits';
import { CI_CONFIG_TOO_LARGE, EMPTY_CONTENT_MESSAGE, parseCiConfig } from './index';

/**
 * `POST /ci/lint`: 8.12's `GitlabCiYamlProcessor.validation_message`, the first problem of a
 * `.gitlab-ci.yml` text or none, found by the same parser that builds pipelines.
 */
export class CiLintService {
  /** The first problem's message, or undefined when the text is a valid configuration. */
  firstError(content: string): string | undefined {
    // Ruby's `blank?`: whitespace alone is no content either.
    if (content.trim() === '') return EMPTY_CONTENT_MESSAGE;
    // The limit pipelines apply, so that the linter says what a push of this file would.
    if (Buffer.byteLength(content, 'utf8') > LIMITS.ciConfigBytes) return CI_CONFIG_TOO_LARGE;
    const parsed = parseCiConfig(content);
    return parsed.ok ? undefined : parsed.error;
  }
}
