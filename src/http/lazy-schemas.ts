import { createRequire } from 'node:module';

/*
 * Fastify compiles every route's validators (Ajv) and response serializers (fast-json-stringify)
 * when the server starts: about a second for Forge's few hundred routes, half of a start. These
 * are Fastify's own default compilers, each route's compiled on the first request that needs it
 * instead. Same options, same code, same errors; a route never asked costs nothing.
 */

type Compile<T> = (route: { schema: unknown; method?: string; url?: string; httpPart?: string; contentType?: string }) => T;
type Validator = ((data: unknown) => unknown) & { errors?: unknown };
type Serializer = (data: unknown) => string;

// Fastify's own dependencies, resolved from Fastify: the versions it would use itself.
const fromFastify = createRequire(createRequire(import.meta.url).resolve('fastify'));
const validatorSelector = (fromFastify('@fastify/ajv-compiler') as () => (external: unknown, options: unknown) => Compile<Validator>)();
const serializerSelector = (
  fromFastify('@fastify/fast-json-stringify-compiler') as () => (external: unknown, options: unknown) => Compile<Serializer>
)();

/** A validator compiled on its first call; Fastify reads `errors` off it after a failed validation. */
function lazyValidator(compile: () => Validator): Validator {
  let validate: Validator | undefined;
  const lazy: Validator = (data) => {
    validate ??= compile();
    const result = validate(data);
    lazy.errors = validate.errors;
    return result;
  };
  return lazy;
}

/** Fastify's `schemaController.compilersFactory`. */
export const lazyCompilersFactory = {
  buildValidator(externalSchemas: unknown, ajvOptions: unknown): Compile<Validator> {
    const compile = validatorSelector(externalSchemas, ajvOptions);
    return (route) => lazyValidator(() => compile(route));
  },
  buildSerializer(externalSchemas: unknown, serializerOptions: unknown): Compile<Serializer> {
    const compile = serializerSelector(externalSchemas, serializerOptions);
    return (route) => {
      let serialize: Serializer | undefined;
      return (data) => (serialize ??= compile(route))(data);
    };
  },
};
