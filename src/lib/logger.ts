/** A log call: structured fields first, then the message; or the message alone. */
export interface LogFn {
  (fields: object, message?: string): void;
  (message: string): void;
}

/**
 * The logging Forge does outside HTTP (background work, services). Pino's logger, and so
 * Fastify's `server.log`, satisfies it, so the layers below the doors never import Fastify.
 */
export interface Logger {
  debug: LogFn;
  info: LogFn;
  warn: LogFn;
  error: LogFn;
}
