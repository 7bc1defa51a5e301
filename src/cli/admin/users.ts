import type { Services } from '../../services/index';
import type { User } from '../../services/users/users';
import { CommandError } from '../command';

/** The user an admin command names, by username or id, or a refusal naming it. */
export async function findUser(services: Services, idOrUsername: string): Promise<User> {
  const user = await services.users.findByIdOrUsername(idOrUsername);
  if (!user) throw new CommandError(`no user "${idOrUsername}" (give a username or an id)`);
  return user;
}

/** A user's credentials as the first start prints root's: to paste, once. */
export function credentialLines(services: Services, user: User, password: string): string {
  return [
    `  username:      ${user.username}`,
    `  password:      ${password}`,
    `  private token: ${services.users.privateToken(user)}`,
    '',
  ].join('\n');
}
