import type { User } from '../../services/users/users';

declare module 'fastify' {
  interface FastifyRequest {
    /** The caller after `sudo` (set by `src/http/auth.ts`), or null for anonymous callers. */
    user: User | null;
  }
}
