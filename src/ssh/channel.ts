import type { ServerChannel } from 'ssh2';

/** A refusal: the message on stderr (git shows it above its own `fatal:` line), exit status 1. */
export function refuse(channel: ServerChannel, message: string): void {
  channel.stderr.write(`${message}\n`);
  finish(channel, 1);
}

/** Ends a command with its exit status (unless the client has gone). */
export function finish(channel: ServerChannel, status: number): void {
  if (channel.destroyed) return;
  channel.exit(status);
  channel.end();
}
