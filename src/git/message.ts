import { GitStoreError } from './errors';

/**
 * A commit's or tag's message as git can store it. Git keeps messages as C strings:
 * `commit-tree` refuses a NUL byte ("a NUL byte in commit log message not allowed") and `mktag`
 * stores one, after which readers cut the message there. Refused here, before any git process.
 */
export function checkMessage(message: string): void {
  if (message.includes('\0')) throw new GitStoreError('invalid_message', 'the message contains a NUL byte');
}
