import { Type, type Static } from '@sinclair/typebox';
import type { Variable as VariableRecord } from '../../../services/variables/variables';
import { Variable as VariableBase, presentVariable as presentVariableBase } from '../../shared/entities/variable';

/**
 * GitLab 9.3–11's variable: `protected` besides the key and value. Forge has no protected
 * variables (every variable reaches every build of the project), so it is always false.
 */
export const Variable = Type.Object({ ...VariableBase.properties, protected: Type.Boolean() });

export function presentVariable(variable: VariableRecord): Static<typeof Variable> {
  return Object.assign(presentVariableBase(variable), { protected: false });
}
