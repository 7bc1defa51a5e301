import { rmSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

/**
 * Whether an update moves a ref forward can only be told once the pushed objects are there, so
 * this one check runs inside receive-pack, as a pre-receive hook given through `core.hooksPath`
 * for that push only (repositories keep an empty hooks directory). Any non-fast-forward update
 * of a listed ref refuses the whole push and prints the message as `remote: …`.
 */
const PRE_RECEIVE = `#!/bin/sh
status=0
while read -r old new ref; do
  case " $FORGE_FAST_FORWARD_ONLY " in
    *" $ref "*) ;;
    *) continue ;;
  esac
  case "$old" in *[!0]*) ;; *) continue ;; esac
  case "$new" in *[!0]*) ;; *) continue ;; esac
  if ! git merge-base --is-ancestor "$old" "$new"; then
    printf '%s\\n' "$FORGE_FAST_FORWARD_MESSAGE" >&2
    status=1
  fi
done
exit $status
`;

let hooksDir: string | undefined;

/** The hooks directory holding the fast-forward check, written once per process (again if a temp cleaner removed it). */
export async function fastForwardHooksDir(): Promise<string> {
  if (hooksDir) {
    try {
      await fs.access(path.join(hooksDir, 'pre-receive'), fs.constants.X_OK);
      return hooksDir;
    } catch {
      hooksDir = undefined;
    }
  }
  // A fresh private directory (not a predictable name another local user could plant a hook in).
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'forge-hooks-'));
  await fs.writeFile(path.join(dir, 'pre-receive'), PRE_RECEIVE, { mode: 0o755 });
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  hooksDir = dir;
  return dir;
}
