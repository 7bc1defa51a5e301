import { get, isHash, isStringOrSymbol, keyText, structural, unknownKeys } from './checks';
import * as entry from './entries';
import { inheritEntry, inherits } from './inherit';

/**
 * `default:` (GitLab 12's `Entry::Default`): values every job inherits unless it sets its own.
 * Each key is one a job may have; its value is checked where it lands, in every job.
 */
export const DEFAULT_KEYS = [
  'image',
  'services',
  'before_script',
  'after_script',
  'cache',
  'artifacts',
  'retry',
  'timeout',
  'interruptible',
  'tags',
] as const;

/**
 * The root with `default`'s values copied into each visible job that lacks them and inherits them
 * (`inherit: default:`, yaml/inherit.ts). Only keys the jobs of this Forge know (`jobKeys`) are
 * accepted, so a default never gives a job a key it refuses.
 */
export function applyDefault(
  root: Map<unknown, unknown>,
  jobKeys: readonly string[],
  isJob: (k: unknown) => boolean,
): Map<unknown, unknown> {
  const v = get(root, 'default');
  if (v === undefined) return root;
  if (!isHash(v)) throw structural('default', 'config should be a hash');
  const allowed = DEFAULT_KEYS.filter((k) => jobKeys.includes(k));
  const unknown = unknownKeys(v, allowed);
  if (unknown.length > 0) throw structural('default', `config contains unknown keys: ${unknown.join(', ')}`);
  entry.image('default:image', get(v, 'image'));
  entry.services('default:services', get(v, 'services'));
  entry.script('default:before_script', get(v, 'before_script'));
  entry.script('default:after_script', get(v, 'after_script'));
  entry.cache('default:cache', get(v, 'cache'));

  const out = new Map<unknown, unknown>();
  for (const [k, job] of root) {
    if (!isJob(k) || !isHash(job)) {
      out.set(k, job);
      continue;
    }
    const inherited = new Map(job);
    const takes = inheritEntry(`jobs:${keyText(k)}`, get(job, 'inherit'), DEFAULT_KEYS).default;
    for (const [dk, dv] of v) {
      if (!isStringOrSymbol(dk) || dv === null || get(job, keyText(dk)) !== undefined) continue;
      if (inherits(takes, keyText(dk))) inherited.set(dk, dv);
    }
    out.set(k, inherited);
  }
  return out;
}
