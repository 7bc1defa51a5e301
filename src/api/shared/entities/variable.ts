import { Type, type Static } from '@sinclair/typebox';
import type { Variable as VariableRecord } from '../../../services/variables/variables';

/** A build variable. */
export const Variable = Type.Object({
  key: Type.String(),
  value: Type.String(),
});

export function presentVariable(variable: VariableRecord): Static<typeof Variable> {
  return { key: variable.key, value: variable.value };
}
