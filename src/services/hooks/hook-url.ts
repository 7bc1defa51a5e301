import type { Validation } from '../../errors';

/**
 * A hook URL must be http or https with a host. GitLab 8.12 checked the scheme
 * only; a URL without a host can never be delivered to.
 */
export function checkHookUrl(validation: Validation, field: string, url: string): void {
  if (!isDeliverableUrl(url)) validation.add(field, 'must be a valid URL');
}

function isDeliverableUrl(url: string): boolean {
  if (!/^https?:\/\//i.test(url)) return false;
  try {
    return new URL(url).hostname !== '';
  } catch {
    return false;
  }
}
