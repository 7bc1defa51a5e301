import { Type, type Static } from '@sinclair/typebox';

/** `POST /ci/lint`'s answer: 8.12 reported the first problem only. */
export const LintResult = Type.Object({
  status: Type.Union([Type.Literal('valid'), Type.Literal('invalid')]),
  errors: Type.Array(Type.String()),
});

export function presentLintResult(error: string | undefined): Static<typeof LintResult> {
  return error === undefined ? { status: 'valid', errors: [] } : { status: 'invalid', errors: [error] };
}
