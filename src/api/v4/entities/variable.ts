import { Type, type Static } from '@sinclair/typebox';
import type { Variable as VariableRecord } from '../../../services/variables/variables';
import { Variable as VariableBase, presentVariable as presentVariableBase } from '../../shared/entities/variable';

/**
 * GitLab 9.3–11's variable: `protected` (given only to builds of protected refs) and 11.10's
 * `masked` besides the key and value.
 */
export const Variable = Type.Object({ ...VariableBase.properties, protected: Type.Boolean(), masked: Type.Boolean() });

export function presentVariable(variable: VariableRecord): Static<typeof Variable> {
  return Object.assign(presentVariableBase(variable), { protected: variable.protected, masked: variable.masked });
}
