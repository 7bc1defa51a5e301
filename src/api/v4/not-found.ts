import { ApiError, notFound } from '../../errors';

/**
 * v4 names what is missing (`404 Key Not Found`) where a v3 service answers GitLab 8.12's
 * `404 Not found`: a catch handler that renames a 404 and lets any other error through.
 */
export const renameNotFound =
  (resource: string) =>
  (error: unknown): never => {
    throw error instanceof ApiError && error.status === 404 ? notFound(resource) : error;
  };
