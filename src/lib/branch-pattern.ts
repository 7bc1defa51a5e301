/**
 * A protected branch rule's name against a branch: `release-*` style names match by wildcard (`*`
 * any run of characters, nothing else special), as GitLab's protected branches do; others exactly.
 */
export function branchPatternMatches(pattern: string, branch: string): boolean {
  if (!pattern.includes('*')) return pattern === branch;
  const regex = new RegExp(
    `^${pattern
      .split('*')
      .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*?')}$`,
  );
  return regex.test(branch);
}
