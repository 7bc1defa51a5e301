import type { UsersService } from './users';
import type { Db } from '../../db/index';
import { randomToken } from '../../lib/secrets';

export interface RootCredentials {
  password: string;
  token: string;
  passwordGenerated: boolean;
  tokenGenerated: boolean;
}

/** On an empty database, creates the administrator `root`; otherwise does nothing. */
export async function ensureRootUser(
  db: Db,
  users: UsersService,
  given: { password?: string; token?: string },
): Promise<RootCredentials | undefined> {
  const anyone = await db.selectFrom('users').select('id').limit(1).executeTakeFirst();
  if (anyone) return undefined;
  const password = given.password ?? randomToken(16);
  const token = given.token ?? randomToken(20);
  try {
    await users.create(
      {
        username: 'root',
        email: 'admin@example.com',
        name: 'Administrator',
        password,
        admin: true,
        confirm: false,
        projects_limit: 100000,
      },
      token,
    );
  } catch (error) {
    // Several servers started together on one new database: one of them made root (and showed its credentials).
    if (await db.selectFrom('users').select('id').where('username', '=', 'root').executeTakeFirst()) return undefined;
    throw error;
  }
  return { password, token, passwordGenerated: !given.password, tokenGenerated: !given.token };
}
